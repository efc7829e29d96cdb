import ArgumentParser
import Logging
import PeerControl
import PeerdDaemon
import PeerdStore
import PeerdWire

#if canImport(Glibc)
import Glibc
#endif

@main
struct PeerdCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peerd",
        abstract: "Share one movie watch list with the machines around you.",
        discussion: """
            peerd keeps a durable watch list in its state directory and replicates it to every peer it \
            can reach over TCP. Use `peerctl` to add, remove and list movies.

            Two daemons on one machine, each dialing the other:
              peerd --name alice --port 7601 --state-dir /tmp/a --socket /tmp/a.sock --no-mdns --peer 127.0.0.1:7602
              peerd --name bob   --port 7602 --state-dir /tmp/b --socket /tmp/b.sock --no-mdns --peer 127.0.0.1:7601

            Stop with Ctrl-C or SIGTERM: queued changes are saved first.
            """,
        version: "0.1.0"
    )

    @Option(help: "The name other peers and `peerctl list` show for changes made here. (default: the host name)")
    var name: String?

    @Option(help: "TCP port to listen on for peers.")
    var port: Int = PeerAddress.defaultPort

    @Option(help: "Address to listen on for peers (:: listens on all IPv4 and IPv6 addresses).")
    var listenAddress: String = "::"

    @Option(
        help: ArgumentHelp(
            "Where the list, the identity and remembered peers live.",
            discussion: "Default: $XDG_STATE_HOME/peerd, or ~/.local/state/peerd.",
            valueName: "dir"
        )
    )
    var stateDir: String?

    @Option(
        help: ArgumentHelp(
            "The control socket `peerctl` talks to.",
            discussion: "Default: $PEERD_SOCKET, else $XDG_RUNTIME_DIR/peerd/control.sock.",
            valueName: "path"
        )
    )
    var socket: String?

    @Flag(help: "Don't publish or browse for peers over mDNS; use --peer and `peerctl connect` only.")
    var noMdns = false

    @Option(
        name: .customLong("peer"),
        help: ArgumentHelp("A peer to dial and keep dialing: host:port. Repeatable.", valueName: "host:port")
    )
    var peers: [String] = []

    @Option(help: ArgumentHelp("Seconds of silence before a keepalive ping.", visibility: .hidden))
    var keepaliveInterval: Double = 10

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        for peer in peers where PeerAddress(peer) == nil {
            throw ValidationError("--peer '\(peer)' is not host:port (e.g. 192.168.1.20:7601 or [fe80::1%eth0]:7601)")
        }
        if let name, name.isEmpty || name.count > 64 { throw ValidationError("--name must be 1 to 64 characters") }
        guard keepaliveInterval > 0 else { throw ValidationError("--keepalive-interval must be positive") }
    }

    func run() async throws {
        let environment = PeerdEnvironment.current
        // One line per event; journald's priority prefix when stderr is the journal, colour only on a TTY.
        let levels = LogLevelOverride()
        let format = LogLineFormat(style: LogLineFormat.style(for: STDERR_FILENO, environment: environment.variables))
        LoggingSystem.bootstrap { _ in LineLogHandler(level: logLevel, override: levels, format: format) }
        let logger = Logger(label: "peerd")

        let socketPath = socket ?? environment.defaultSocketPath
        var configuration = DaemonConfiguration(
            name: name ?? environment.hostName,
            port: port,
            listenAddress: listenAddress,
            stateDirectory: try stateDir ?? StateDirectory.defaultPath(environment: environment.variables).string,
            socketPath: socketPath,
            socketIsDefault: socket == nil && environment.variables["PEERD_SOCKET"] == nil,
            mdns: !noMdns,
            staticPeers: peers.compactMap { PeerAddress($0) }
        )
        configuration.session.keepaliveInterval = .milliseconds(Int(keepaliveInterval * 1000))
        configuration.environment = environment.variables
        do {
            try await Daemon.run(configuration, logger: logger)
        } catch {
            logger.critical("peerd cannot start: \(error)")
            throw ExitCode(70)
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
