package import PeerdModel
package import SystemPackage

/// A replica as of a prefix of its operation log (``ReplicaParts``), in a file beside the log, so
/// that a start reads it and the log's tail rather than the whole log (docs/ARCHITECTURE.md,
/// "Start-up"). The log stays what counts: a snapshot is used only when everything about it
/// checks out, and is otherwise set aside and made again.
///
/// The file: ``magic``; the peerd version that wrote it (another version folds again from the log:
/// its rules may differ); the log length it covers and the CRC-32C of the log's last
/// ``tailWindow`` bytes before that length (a log cut back, replaced or rewritten since no longer
/// matches: the snapshot is stale); the parts; and the CRC-32C of everything before (a torn or
/// damaged file does not match).
package enum ReplicaSnapshot {
    /// "PEERDSN" and the format's number: a change to the parts' bytes takes the next number.
    static let magic = Array("PEERDSN1".utf8)
    /// How much of the log's end a snapshot checks the log by.
    static let tailWindow: Int64 = 4096
    /// A snapshot larger than this is not one.
    static let sizeLimit = 1 << 31

    /// What a snapshot says: the replica's parts, the log length they cover, and the checksum of
    /// the log's end it was made against (``read(at:logPath:version:)`` checks it).
    package struct Contents: Sendable {
        package var parts: ReplicaParts
        package var logLength: Int64
        var tailChecksum: UInt32
    }

    /// Where the snapshot of the log at `logPath` is kept: beside it, `operations.log` →
    /// `operations.snapshot`.
    package static func path(besideLog logPath: FilePath) -> FilePath {
        logPath.removingLastComponent().appending("\(logPath.stem ?? "operations").snapshot")
    }

    /// Why a snapshot was not used (none: there was no file).
    package enum Unused: Error, Sendable, CustomStringConvertible {
        case torn(String)
        case stale(String)
        case otherVersion(String)

        package var description: String {
            switch self {
            case .torn(let reason): "damaged or cut short (\(reason))"
            case .stale(let reason): "stale: \(reason)"
            case .otherVersion(let version): "written by peerd \(version)"
            }
        }
    }

    /// Replaces the snapshot at `path` (atomically) with `parts`, taken from a replica of the log
    /// at `logPath`. They cover the log up to the end of the last record they hold: whatever the
    /// log holds after it (appended meanwhile, or skipped at start) is its tail, read at the next start.
    package static func write(
        _ parts: ReplicaParts,
        logPath: FilePath,
        version: String,
        to path: FilePath
    ) throws(StoreError) {
        let logLength = try coveredLength(of: parts, logPath: logPath)
        let tail = try tailChecksum(of: logPath, length: logLength)
        try AtomicFile.write(to: path) { file throws(Errno) in
            var writer = SnapshotWriter(file: file)
            for byte in magic { writer.put(byte) }
            writer.put(version)
            writer.put(UInt64(logLength))
            writer.put(tail)
            writer.put(parts)
            writer.spill()
            writer.put(writer.checksum)
            writer.spill()
            if let failure = writer.failure { throw failure }
        }
    }

    /// The snapshot at `path`, when there is one and it fits the log at `logPath` and this
    /// `version`; nil when there is none.
    ///
    /// - Throws: ``Unused`` when there is one but it can't be used.
    package static func read(at path: FilePath, logPath: FilePath, version: String) throws(Unused) -> Contents? {
        let bytes: [UInt8]
        do throws(StoreError) {
            guard let read = try AtomicFile.read(path, limit: sizeLimit) else { return nil }
            bytes = read
        } catch {
            throw .torn("\(error)")
        }
        let checked = bytes.withUnsafeBytes { raw in
            Result { () throws(Unused) -> Contents in try Self.contents(of: raw, version: version) }
        }
        let contents = try checked.get()
        let checksum: UInt32
        do throws(StoreError) {
            checksum = try tailChecksum(of: logPath, length: contents.logLength)
        } catch {
            throw .stale("the log can't be read where the snapshot ends (\(error))")
        }
        guard checksum == contents.tailChecksum else { throw .stale("the log is not the one it was made from") }
        return contents
    }
}
