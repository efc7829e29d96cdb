import PeerdTestKit

#if canImport(Glibc)
import Glibc
#endif

/// A `dbus-daemon` of the test's own, on a socket in a scratch directory, killed by ``kill()``.
///
/// It runs with a configuration of its own rather than `--session`'s: the session configuration
/// lets the bus start any notification server installed on the machine (D-Bus activation), and the
/// tests need a bus where only their own server owns `org.freedesktop.Notifications`.
final class TestSessionBus {
    /// The daemon, when it is installed (Debian's `dbus-daemon` or `dbus` package).
    static let program: String? = ["/usr/bin/dbus-daemon", "/bin/dbus-daemon"].first { access($0, X_OK) == 0 }

    enum Failure: Error {
        case notInstalled
        case spawn(Int32)
        case noAddress(log: String)
    }

    /// What a client connects to: `unix:path=…,guid=…`.
    let address: String
    private let scratch: ScratchDirectory
    private var pid: pid_t?

    init() throws {
        guard let program = Self.program else { throw Failure.notInstalled }
        scratch = try ScratchDirectory("dbus")
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
              "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(scratch.path("bus"))</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        try scratch.write(config, to: "bus.conf")
        var output: [Int32] = [0, 0]
        // Close-on-exec, so that no process another test starts keeps the daemon's output open.
        guard pipe(&output) == 0 else { throw Failure.spawn(errno) }
        for end in output { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { close(output[0]) }
        let arguments = ["--config-file=\(scratch.path("bus.conf"))", "--nofork", "--print-address=1"]
        let spawned = Self.spawn(program, arguments, stdout: output[1], stderr: scratch.path("daemon.log"))
        close(output[1])
        let pid = try spawned.get()
        guard let address = Self.firstLine(of: output[0], within: .seconds(15)) else {
            Self.end(pid)
            throw Failure.noAddress(log: Self.contents(of: scratch.path("daemon.log")))
        }
        self.address = address
        self.pid = pid
    }

    deinit { kill() }

    /// Kills the daemon (SIGKILL: it has no say) and waits for it to end; later calls do nothing.
    func kill() {
        guard let pid else { return }
        self.pid = nil
        Self.end(pid)
    }

    private static func end(_ pid: pid_t) {
        Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
    }

    private static func spawn(
        _ program: String,
        _ arguments: [String],
        stdout: Int32,
        stderr: String
    ) -> Result<pid_t, Failure> {
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var pid: pid_t = 0
        let error = posix_spawn(&pid, program, &actions, nil, argv, environ)
        return error == 0 ? .success(pid) : .failure(.spawn(error))
    }

    /// The text of the file at `path`; empty when it can't be read.
    static func contents(of path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let count = read(descriptor, &buffer, buffer.count), count > 0 { bytes += buffer[..<count] }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The first line written to `descriptor`, waiting on it with poll(2); nil at its end or after `timeout`.
    private static func firstLine(of descriptor: Int32, within timeout: Duration) -> String? {
        let deadline = ContinuousClock.now + timeout
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while !bytes.contains(UInt8(ascii: "\n")) {
            let left = deadline - .now
            guard left > .zero else { return nil }
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
            guard poll(&waiting, 1, Int32(max(milliseconds, 1))) >= 0 || errno == EINTR else { return nil }
            guard waiting.revents != 0 else { continue }
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { return nil }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    }
}

/// Runs `body` with a fresh ``TestSessionBus``, killed once `body` returns or throws.
func withTestSessionBus<Result>(_ body: (TestSessionBus) async throws -> Result) async throws -> Result {
    let bus = try TestSessionBus()
    defer { bus.kill() }
    return try await body(bus)
}
