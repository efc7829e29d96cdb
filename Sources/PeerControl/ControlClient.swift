package import PeerdWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking client for the control socket: what `peerctl`, the tests and the benchmarks use.
///
/// Plain POSIX sockets rather than SwiftNIO: `peerctl` makes one request and exits, so starting an
/// event loop would only add to its start-up time.
package final class ControlClient {
    package enum Failure: Error, CustomStringConvertible {
        /// Nothing is listening at the path (or it doesn't exist).
        case noDaemon(path: String, reason: String)
        /// The socket or its directory belongs to another user: connecting was refused (EACCES).
        case permissionDenied(path: String)
        /// The daemon serves another user and refused this one (error `forbidden`); its message says who.
        case forbidden(path: String, message: String)
        /// The daemon closed the connection before it answered: it stopped, or was killed.
        /// `reason` is the error of the read or write, nil for an ordinary end of the stream.
        case connectionLost(reason: String?)
        /// The daemon sent something that isn't the control protocol.
        case protocolError(String)

        package var description: String {
            switch self {
            case .noDaemon(let path, let reason):
                "no peerd is listening on \(path) (\(reason)).\n"
                    + "Start it with `peerd` (or `systemctl --user start peerd`), "
                    + "or point peerctl at its socket with --socket PATH or PEERD_SOCKET."
            case .permissionDenied(let path):
                "permission denied: \(path) belongs to another user, whose peerd serves only them.\n"
                    + Self.ownDaemonHint
            case .forbidden(let path, let message):
                "\(message) (\(path)).\n" + Self.ownDaemonHint
            case .connectionLost(let reason):
                "peerd closed the connection before answering\(reason.map { " (\($0))" } ?? ""): "
                    + "it stopped or restarted (`peerctl status` says whether it runs)"
            case .protocolError(let message): "peerd sent something unexpected: \(message)"
            }
        }

        private static let ownDaemonHint =
            "Use your own peerd (by default $XDG_RUNTIME_DIR/peerd/control.sock), "
            + "or run peerctl as the user who started this one."
    }

    package let socketPath: String
    /// The member every request acts for: a profile that lives on this machine (its name or id);
    /// nil for the machine's own member. Set on each request sent that names none.
    package var profile: String?
    /// The list every request reads and writes: a list's name, or its id or the id's first 8
    /// digits; nil for the group's own. Set on each request sent that names none; requests about
    /// the group ignore it (proto/CONTROL.md, "Lists").
    package var list: String?
    private let fd: Int32

    package init(socketPath: String) throws(Failure) {
        self.socketPath = socketPath
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard socketPath.utf8.count < capacity else {
            throw .noDaemon(path: socketPath, reason: "path is longer than \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in socketPath.utf8.enumerated() { raw[i] = byte }
        }
        #if canImport(Glibc)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw .noDaemon(path: socketPath, reason: Self.errorText()) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            if code == EACCES || code == EPERM { throw .permissionDenied(path: socketPath) }
            throw .noDaemon(path: socketPath, reason: String(cString: strerror(code)))
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Ends the connection both ways now; callable from any thread, so that a ``receive()`` blocked
    /// on another (a `follow` reader's) wakes with an error.
    package func shutDown() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Sends one request and reads its one response.
    package func request(_ request: ControlRequest) throws(Failure) -> ControlResponse {
        try send(request)
        return try receive()
    }

    /// Sends one request of the kind `body` is and reads its one response.
    package func request(_ body: some ControlRequestBody) throws(Failure) -> ControlResponse {
        try request(ControlRequest(body))
    }

    package func send(_ body: some ControlRequestBody) throws(Failure) { try send(ControlRequest(body)) }

    package func send(_ request: ControlRequest) throws(Failure) {
        var request = request
        request.profile = request.profile ?? profile
        request.list = request.list ?? list
        do {
            try writeAll(Frame.bytes(WireCoding.encode(request)))
        } catch {
            // A daemon that refuses this user answers at once and closes without reading, so the write
            // can fail: the refusal waiting to be read says more than the broken pipe.
            do throws(Failure) {
                _ = try receive()
            } catch .forbidden(let path, let message) {
                throw .forbidden(path: path, message: message)
            } catch {}
            throw error
        }
    }

    /// Reads the next response; `follow` streams call this in a loop.
    package func receive() throws(Failure) -> ControlResponse {
        let header = try readExactly(Frame.headerLength)
        let length = header.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let bodyLength: Int
        do {
            bodyLength = try Frame.checkedLength(length)
        } catch {
            throw .protocolError(error.description)
        }
        let body = try readExactly(bodyLength)
        let response: ControlResponse
        do {
            response = try WireCoding.decode(ControlResponse.self, from: body)
        } catch {
            throw .protocolError(error.description)
        }
        if case .error(let error) = response, error.code == .forbidden {
            throw .forbidden(path: socketPath, message: error.message)
        }
        return response
    }

    private func writeAll(_ bytes: [UInt8]) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a daemon that has closed (a refusal) must give EPIPE, not kill peerctl with SIGPIPE.
            #if canImport(Glibc)
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #else
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            #endif
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw .connectionLost(reason: Self.errorText()) }
            offset += n
        }
    }

    private func readExactly(_ count: Int) throws(Failure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let n = bytes[offset...].withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                throw .connectionLost(reason: n == 0 ? nil : Self.errorText())
            }
            offset += n
        }
        return bytes
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
