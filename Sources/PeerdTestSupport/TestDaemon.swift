package import Foundation
import PeerControl
package import PeerdTestKit
package import PeerdWire

/// A real `peerd` process on loopback with its own state directory and control socket.
package final class TestDaemon: @unchecked Sendable {
    // @unchecked: `process` is replaced only by `start`/`restart`, which tests call from one task.
    package let name: String
    package let scratch: ScratchDirectory
    package let extraArguments: [String]
    package private(set) var process: Process?
    package private(set) var port: Int = 0
    private var requestedPort: Int
    private let logLevel: String
    /// Runs peerd as the unprivileged user `nobody` (via setpriv), as most users run it.
    private let runAsNobody: Bool
    /// The group secret it is started with (`--group-secret-file`); nil for none.
    package let groupSecret: String?
    /// Whether the daemon traces its peer frames to ``framesPath`` (`PEERD_TRACE_FRAMES`).
    private let traceFrames: Bool
    /// systemd's watchdog timeout as the unit's `WatchdogSec=` gives it (`WATCHDOG_USEC`); nil for none.
    private let watchdog: Duration?

    /// What test daemons share unless a test says otherwise, so that they trust each other.
    package static let testGroupSecret = "peerd end-to-end tests: one group"

    package let stateDir: String
    package var socket: String { scratch.path("\(name).sock") }
    package var logPath: String { scratch.path("\(name).log") }
    package var framesPath: String { scratch.path("\(name).frames") }
    package var address: String { "127.0.0.1:\(port)" }
    package var pid: Int32? { process?.processIdentifier }

    /// Resident memory of the daemon process in bytes, from /proc.
    package var residentBytes: Int? {
        guard let pid, let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return line.split(separator: " ").compactMap { Int($0) }.first.map { $0 * 1024 }
    }

    /// Starts `peerd --name NAME --port 0 --no-mdns …` and waits until it reports ready (`READY=1`).
    package init(
        _ name: String,
        in scratch: ScratchDirectory,
        peers: [TestDaemon] = [],
        arguments: [String] = [],
        stateDir: String? = nil,
        logLevel: String = "debug",
        runAsNobody: Bool = false,
        groupSecret: String? = TestDaemon.testGroupSecret,
        watchdog: Duration? = nil,
        traceFrames: Bool = false
    ) throws {
        self.name = name
        self.traceFrames = traceFrames
        self.groupSecret = groupSecret
        self.watchdog = watchdog
        self.runAsNobody = runAsNobody
        self.stateDir = stateDir ?? scratch.path("state-\(name)")
        self.logLevel = logLevel
        self.scratch = scratch
        self.requestedPort = 0
        self.extraArguments = peers.flatMap { ["--peer", $0.address] } + arguments
        try start()
    }

    deinit { stop(signal: SIGKILL) }

    /// (Re)starts on the same port, state directory and socket.
    package func start() throws {
        let process = Process()
        process.executableURL = runAsNobody ? URL(fileURLWithPath: "/usr/bin/setpriv") : Binaries.peerd
        let prefix = runAsNobody ? ["--reuid=65534", "--regid=65534", "--clear-groups", "--", Binaries.peerd.path] : []
        var secretArguments: [String] = []
        if let groupSecret {
            let path = scratch.path("\(name).secret")
            _ = FileManager.default.createFile(
                atPath: path,
                contents: Data(groupSecret.utf8),
                attributes: [.posixPermissions: 0o600]
            )
            if runAsNobody { chown(path, 65534, 65534) }
            secretArguments = ["--group-secret-file", path]
        }
        process.arguments =
            prefix + [
                "--name", name, "--port", String(requestedPort), "--listen-address", "127.0.0.1",
                "--state-dir", stateDir, "--socket", socket, "--no-mdns", "--log-level", logLevel,
            ] + secretArguments + Self.webArguments(extraArguments) + extraArguments
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        log.seekToEndOfFile()
        // The developer's own config.json and TMDB token never reach a test daemon: it would ask
        // the real TMDB. An ordinary user (runAsNobody) has a home of their own too.
        var environment = ProcessInfo.processInfo.environment
        environment["TMDB_TOKEN"] = nil
        environment["XDG_CONFIG_HOME"] = scratch.path("config-\(name)")
        if runAsNobody { environment["HOME"] = scratch.url.path }
        let ready = try ReadySocket()
        environment["NOTIFY_SOCKET"] = ready.address
        environment["WATCHDOG_USEC"] = watchdog.map { String(Int($0 / .microseconds(1))) }
        environment["WATCHDOG_PID"] = nil
        environment["PEERD_TRACE_FRAMES"] = traceFrames ? framesPath : nil
        process.environment = environment
        process.standardError = log
        process.standardOutput = log
        try process.run()
        self.process = process
        // READY=1 comes once the store is open and both sockets listen (SystemdService).
        guard ready.waitForReady(until: .now + .seconds(20), running: { process.isRunning }) else {
            throw process.isRunning ? Failure.notReady(name, log: self.log) : Failure.exited(name, log: self.log)
        }
        let status = try status()
        port = status.port
        requestedPort = status.port
    }

    /// Sends `signal` and waits for the process to end.
    package func stop(signal: Int32 = SIGTERM) {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
    }

    package func status() throws -> StatusRecord {
        guard case .status(let status) = try ControlClient(socketPath: socket).request(StatusRequest()) else {
            throw Failure.unexpected
        }
        return status
    }

    /// Runs the real `peerctl --socket <this daemon's socket> ARGS…`.
    package func peerctl(_ arguments: String...) throws -> PeerctlRun {
        try PeerctlRun.run(["--socket", socket] + arguments)
    }

    /// The list as `peerctl list --json` prints it.
    package func list() throws -> [MovieRecord] {
        let run = try peerctl("list", "--json")
        guard run.status == 0 else { throw Failure.command(run) }
        return try run.json([MovieRecord].self)
    }

    package func movieIDs() throws -> [Int] { try list().map(\.movieId) }

    package var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// The bodies of the peer frames it received (`<` records of ``framesPath``), in order; empty
    /// unless it traces frames.
    package func receivedFrames() -> [[UInt8]] {
        guard let data = FileManager.default.contents(atPath: framesPath) else { return [] }
        let bytes = [UInt8](data)
        var frames: [[UInt8]] = []
        var offset = 0
        while offset + 5 <= bytes.count {
            let length = bytes[offset + 1..<offset + 5].reduce(0) { $0 << 8 | Int($1) }
            guard offset + 5 + length <= bytes.count else { break }
            if bytes[offset] == UInt8(ascii: "<") { frames.append(Array(bytes[offset + 5..<offset + 5 + length])) }
            offset += 5 + length
        }
        return frames
    }

    package enum Failure: Error, CustomStringConvertible {
        case exited(String, log: String)
        case notReady(String, log: String)
        case command(PeerctlRun)
        case unexpected

        package var description: String {
            switch self {
            case .exited(let name, let log): "peerd \(name) exited during start:\n\(log)"
            case .notReady(let name, let log): "peerd \(name) did not report ready within 20 s:\n\(log)"
            case .command(let run): "peerctl failed: \(run)"
            case .unexpected: "unexpected control response"
            }
        }
    }
}

extension TestDaemon {
    /// Each test daemon's page on a free port (so daemons side by side never contend for 7602),
    /// unless the test chose its own or none; its guest door and its linked devices' door on
    /// loopback and a free port, never on this machine's own LAN address.
    static func webArguments(_ arguments: [String]) -> [String] {
        let page = arguments.contains { $0 == "--web-port" || $0 == "--no-web" } ? [] : ["--web-port", "0"]
        let guestFlags: Set = ["--guest-address", "--guest-port", "--no-guests"]
        let door =
            arguments.contains(where: guestFlags.contains) ? [] : ["--guest-address", "127.0.0.1", "--guest-port", "0"]
        let deviceFlags: Set = ["--device-address", "--device-port", "--no-devices"]
        let devices =
            arguments.contains(where: deviceFlags.contains)
            ? [] : ["--device-address", "127.0.0.1", "--device-port", "0"]
        return page + door + devices
    }
}
