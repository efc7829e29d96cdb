import PeerControl
import PeerdWire
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The control socket's path and the checks around creating it.
struct ControlSocketPath: Sendable {
    enum Failure: Error, CustomStringConvertible {
        case inUse(String)
        case cannotCreate(String, errno: Int32)
        case tooLong(String)
        case foreignDirectory(String)

        var description: String {
            switch self {
            case .inUse(let path):
                "another peerd is already serving \(path); stop it first, or give this one --socket PATH"
            case .cannotCreate(let path, let code):
                "cannot create \(path): \(String(cString: strerror(code)))"
            case .foreignDirectory(let path):
                "\(path) belongs to another user, so the control socket can't be private there; "
                    + "remove it or give peerd --socket PATH"
            case .tooLong(let path):
                "socket path \(path) is longer than the 107 bytes Unix sockets allow; pick a shorter --socket"
            }
        }
    }

    let path: String
    /// True for the default `$XDG_RUNTIME_DIR/peerd/control.sock`, whose directory is ours to make private.
    let ownsDirectory: Bool

    var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Creates the directory (0700) if missing, and removes a stale socket left by a crashed daemon.
    func prepare() throws {
        guard path.utf8.count <= 107 else { throw Failure.tooLong(path) }
        try Self.makeDirectories(directory)
        if ownsDirectory {
            // The default directory may be under /tmp (no XDG_RUNTIME_DIR): never adopt someone else's.
            guard let owner = try? FilePath(directory).stat(followTargetSymlink: false),
                owner.userID.rawValue == getuid(), owner.type == .directory
            else {
                throw Failure.foreignDirectory(directory)
            }
            chmod(directory, 0o700)
        }
        guard (try? FilePath(path).stat(followTargetSymlink: false)) != nil else { return }
        // Something answering there is a live daemon; a file nobody answers on is a crashed one's.
        if (try? ControlClient(socketPath: path)) != nil { throw Failure.inUse(path) }
        unlink(path)
    }

    func restrictPermissions() throws {
        guard chmod(path, 0o600) == 0 else { throw Failure.cannotCreate(path, errno: errno) }
    }

    /// `mkdir -p`, new directories mode 0700.
    static func makeDirectories(_ path: String) throws {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0, errno != EEXIST { throw Failure.cannotCreate(current, errno: errno) }
        }
    }
}
