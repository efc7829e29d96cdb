import PeerdRelay
import PeerdTestKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Debian's relay server `strelaysrv` (package syncthing-relaysrv), of the test's own: on a free
/// loopback port, private (no pools, no status server, IPv4 only, and `-nat` is off by default, so
/// it never multicasts), its keys in a scratch directory so that a restart keeps its id.
final class TestRelayServer {
    /// The server, when it is installed.
    static let program: String? = ["/usr/bin/strelaysrv", "/usr/local/bin/strelaysrv"].first { access($0, X_OK) == 0 }
    static let missing: Comment = "needs Debian's strelaysrv (apt-get install syncthing-relaysrv)"

    enum Failure: Error {
        case notInstalled
        case spawn(Int32)
        case noURL(log: String)
        case badURL(String)
    }

    /// As the server printed it: `relay://127.0.0.1:PORT/?id=…`.
    private(set) var url: RelayURL
    let port: Int
    private let scratch: ScratchDirectory
    private var pid: pid_t?
    /// The read end of the server's output, open while it runs: Go ends a program whose stderr is
    /// a closed pipe.
    private var output: Int32 = -1

    init() throws {
        scratch = try ScratchDirectory("relay")
        port = try Self.freePort()
        url = RelayURL(host: "127.0.0.1", port: port)
        try start()
    }

    deinit { kill() }

    /// Starts the server (again, after ``kill()``, with the same keys and port) and waits for the
    /// line with its URL.
    func start() throws {
        guard let program = Self.program else { throw Failure.notInstalled }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw Failure.spawn(errno) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let arguments = [
            "-keys", scratch.path("keys"), "-pools=", "-listen=127.0.0.1:\(port)", "-status-srv=", "-protocol=tcp4",
        ]
        _ = mkdir(scratch.path("keys"), 0o700)
        let spawned = Self.spawn(program, arguments, output: ends[1])
        close(ends[1])
        guard case .success(let pid) = spawned else {
            close(ends[0])
            throw Failure.spawn(errno)
        }
        self.pid = pid
        output = ends[0]
        var log: [String] = []
        while let line = Self.line(of: output, within: .seconds(30)) {
            log.append(line)
            guard let start = line.firstRange(of: "URI: ") else { continue }
            let text = String(line[start.upperBound...])
            guard case .success(let printed) = RelayURL.parse(text) else { throw Failure.badURL(text) }
            url = printed
            return
        }
        kill()
        throw Failure.noURL(log: log.joined(separator: "\n"))
    }

    /// Kills the server (SIGKILL: it has no say) and waits for it to end; later calls do nothing.
    func kill() {
        if let pid {
            self.pid = nil
            Glibc.kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        }
        if output >= 0 { close(output) }
        output = -1
    }

    /// Whether the server accepts connections yet: it prints its URL just before it listens.
    func accepts() -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(socket) }
        var address = Self.loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        return address
    }

    /// A loopback port nobody listens on: the kernel's pick for a socket bound to port 0.
    private static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(socket) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw Failure.spawn(errno) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func spawn(_ program: String, _ arguments: [String], output: Int32) -> Result<pid_t, Failure> {
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, output, 2)
        var pid: pid_t = 0
        let error = posix_spawn(&pid, program, &actions, nil, argv, environ)
        return error == 0 ? .success(pid) : .failure(.spawn(error))
    }

    /// The next line written to `descriptor`, waiting on it with poll(2); nil at its end or after `timeout`.
    private static func line(of descriptor: Int32, within timeout: Duration) -> String? {
        let deadline = ContinuousClock.now + timeout
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while byte != UInt8(ascii: "\n") {
            let left = deadline - .now
            guard left > .zero else { return nil }
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
            guard poll(&waiting, 1, Int32(max(milliseconds, 1))) >= 0 || errno == EINTR else { return nil }
            guard waiting.revents != 0 else { continue }
            // A byte at a time: what follows the line stays in the pipe for the next call.
            guard read(descriptor, &byte, 1) == 1 else { return nil }
            if byte != UInt8(ascii: "\n") { bytes.append(byte) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Runs `body` with a fresh ``TestRelayServer`` that accepts connections, killed once `body` returns or throws.
func withTestRelayServer<Result>(_ body: (TestRelayServer) async throws -> Result) async throws -> Result {
    let server = try TestRelayServer()
    defer { server.kill() }
    // No event says the server listens: it is asked, at a short tick, until it accepts.
    guard try await waitUntil(Ticks(every: .milliseconds(20)), within: .seconds(10), { server.accepts() }) else {
        throw TestRelayServer.Failure.noURL(log: "strelaysrv printed its URL but does not accept connections")
    }
    return try await body(server)
}
