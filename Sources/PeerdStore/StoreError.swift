package import PeerdModel
package import SystemPackage

/// Why the store could not do what was asked. Each case names the file involved, and its
/// `description` says what happened and what the user can do about it.
package enum StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Neither `XDG_STATE_HOME` nor `HOME` is set, so there is no default state directory.
    case noStateDirectory
    /// Another process holds the state directory's lock.
    case locked(FilePath)
    /// A file or directory could not be opened, created or read.
    case cannotAccess(FilePath, Errno)
    /// The file exists but does not start with the operation log's magic header: it is not ours,
    /// and it was left untouched.
    case notALog(FilePath)
    /// A newer peerd wrote this (the state directory, or the operation log) in a format this one
    /// does not read (`found`, above `reads`); nothing in it was changed.
    case newerFormat(FilePath, found: Int, reads: Int)
    /// A small JSON file of the state directory (peers, trust) does not hold what it should.
    case corruptFile(FilePath, reason: String)
    /// Writing or flushing failed; whatever this call wrote was rolled back.
    case writeFailed(FilePath, Errno)
    /// The log's damaged end could not be copied aside, so it was not cut off; the log is unchanged.
    case recoveryFailed(FilePath, Errno)
    /// An earlier failed append could not be rolled back; the log refuses further appends until
    /// the daemon restarts and checks it.
    case logUnusable(FilePath)
    /// An operation cannot be stored (for instance, its record would exceed the record size limit).
    case invalidOperation(OperationID, reason: String)

    package var description: String {
        switch self {
        case .noStateDirectory:
            return "No state directory: neither XDG_STATE_HOME nor HOME is set. Set one of them or pass --state-dir."
        case .locked(let path):
            return "\(path) is in use by another peerd. Stop it first, or give this one its own --state-dir."
        case .cannotAccess(let path, let errno):
            return "Cannot use \(path): \(errno). Check that it exists and that you own it (ls -ld)."
        case .notALog(let path):
            return "\(path) is not a peerd operation log (wrong header), so it was left untouched. "
                + "Move it aside or point peerd at another --state-dir."
        case .newerFormat(let path, let found, let reads):
            return "\(path) was written by a newer peerd (format \(found); this one reads up to \(reads)), "
                + "so it was left untouched. Run that newer peerd again, or give this one another --state-dir."
        case .corruptFile(let path, let reason):
            return "\(path) is damaged: \(reason). Fix it or move it aside."
        case .writeFailed(let path, let errno):
            return "\(Self.what(errno)) while saving to \(path): \(Self.advice(errno)); nothing was saved."
        case .recoveryFailed(let path, let errno):
            return "\(Self.what(errno)) while setting aside the damaged end of \(path): "
                + "\(Self.advice(errno)), then start peerd again; the log was left as it was."
        case .logUnusable(let path):
            return "An earlier save to \(path) failed and could not be undone. "
                + "Restart peerd; it checks and repairs the log when it starts."
        case .invalidOperation(let id, let reason):
            return "Operation \(id) cannot be stored: \(reason)."
        }
    }

    /// The error as a user reads it: "No space left on device".
    private static func what(_ errno: Errno) -> String {
        let text = errno.description
        return text.prefix(1).uppercased() + text.dropFirst()
    }

    private static func advice(_ errno: Errno) -> String {
        switch errno {
        case .noSpace: return "free some space"
        case .diskQuotaExceeded: return "free some space or raise your disk quota"
        case .fileTooLarge: return "the file hit a size limit (see ulimit -f)"
        case .readOnlyFileSystem: return "the file system is read-only; remount it read-write"
        case .permissionDenied, .notPermitted: return "check that you own the state directory (ls -ld)"
        case .ioError: return "the disk reported an I/O error; check it (dmesg)"
        default: return "check the disk and the state directory"
        }
    }
}
