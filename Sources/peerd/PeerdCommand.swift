public import ArgumentParser
public import Logging
import PeerControl
import PeerdDaemon
import PeerdModel
import PeerdWire

#if canImport(Glibc)
import Glibc
#endif

struct PeerdCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peerd",
        abstract: "Share one movie watch list with the machines around you.",
        discussion: """
            peerd keeps a durable watch list in its state directory and replicates it to every peer it \
            can reach over TCP. Use `peerctl` to add, remove and list movies.

            Two daemons on one machine, each dialing the other:
              peerd --name alice --port 7601 --state-dir /tmp/a --socket /tmp/a.sock --no-mdns --peer 127.0.0.1:7611
              peerd --name bob   --port 7611 --state-dir /tmp/b --socket /tmp/b.sock --no-mdns --peer 127.0.0.1:7601 \\
                --web-port 7612

            Stop with Ctrl-C or SIGTERM: queued changes are saved first. SIGHUP re-reads the config file.

            The optional config file ($XDG_CONFIG_HOME/peerd/config.json, or --config) is a JSON object \
            with keys named after the options: name, port, listenAddress, stateDir, socket, mdns, peers \
            (a list), logLevel, tmdbTokenFile, tmdbUrl, tmdbLanguage, web (true or false), webAddress (one \
            or a list), webPort, guests (true or false), guestAddress, guestPort, devices (true or false), \
            deviceAddress, devicePort, newsInterval and notifications (true or false). Options given on the command line win over it, and it wins over the defaults; its peers add to --peer.

            The page: `peerctl open` prints its address with the token that lets you in, and opens it.

            Guests: while a pick opened here (`peerctl pick`) is open, its guests vote from their phones on \
            a page served on this machine's LAN address, behind the link `peerctl pick` prints.

            Linked devices: a phone, tablet or TV browser that opened a link of `peerctl device link` \
            gets its member's page on this machine's LAN address (port 7604), by a capability in its \
            cookie, until `peerctl device unlink`. That door listens only while a device is linked or \
            a link is pending (and ten minutes after the last one goes, to tell an unlinked phone so). \
            Nothing else is served on the LAN.
            """,
        version: PeerdVersion.current
    )

    @Option(help: "The name other peers and `peerctl list` show for changes made here. (default: the host name)")
    var name: String?

    @Option(help: "TCP port to listen on for peers. (default: \(PeerAddress.defaultPort))")
    var port: Int?

    @Option(help: "Address to listen on for peers (:: listens on all IPv4 and IPv6 addresses). (default: ::)")
    var listenAddress: String?

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
            discussion: """
                Default: $PEERD_SOCKET, else the config file's socket, else $XDG_RUNTIME_DIR/peerd/control.sock.
                """,
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

    @Option(
        help: ArgumentHelp(
            "A file holding the group's shared secret: peers that hold the same one trust each other.",
            discussion: """
                For scripted setups; people pair with `peerctl invite` and `peerctl join` instead. Every member \
                is started with a copy of the same file: random bytes, not a password, mode 0600, made with \
                `head -c 32 /dev/urandom | base64 > group.secret`. The secret is the file's bytes as they are \
                (base64 text is not decoded; a binary file works too) with whitespace at both ends dropped, \
                and at least 16 bytes must remain.
                """,
            valueName: "file"
        )
    )
    var groupSecretFile: String?

    @Option(
        help: ArgumentHelp(
            "A file holding a TMDB token (mode 0600), to fetch movies' details and search.",
            discussion: """
                A v4 read access token or a v3 API key, from themoviedb.org's API settings. Default: \
                $TMDB_TOKEN, else ~/.config/peerd/tmdb.token if it exists. Without a token peerd works all \
                the same and shows details that peers with a token fetched.
                """,
            valueName: "file"
        )
    )
    var tmdbTokenFile: String?

    @Option(
        help: ArgumentHelp(
            "The TMDB API's base URL, for a mirror or tests. (default: https://api.themoviedb.org)",
            valueName: "url"
        )
    )
    var tmdbURL: String?

    @Option(help: ArgumentHelp("The language to ask TMDB for. (default: en-US)", valueName: "tag"))
    var tmdbLanguage: String?

    @Flag(help: "Never call TMDB, even with a token.")
    var noTmdb = false

    @Option(
        name: .customLong("web-address"),
        help: ArgumentHelp(
            "An address the page listens on. Repeatable. (default: 127.0.0.1 and ::1)",
            discussion: "Anyone who can reach the address still needs the page's token, from `peerctl open`.",
            valueName: "address"
        )
    )
    var webAddresses: [String] = []

    @Option(help: ArgumentHelp("The page's TCP port; 0 picks a free one. (default: 7602)", valueName: "port"))
    var webPort: Int?

    @Flag(help: "Don't serve the page (`peerctl open`).")
    var noWeb = false

    @Option(
        help: ArgumentHelp(
            "The LAN address a pick's guests reach this machine on. (default: the first private IPv4 address)",
            discussion: "Served only while a pick opened here is open, and only behind its link.",
            valueName: "address"
        )
    )
    var guestAddress: String?

    @Option(help: ArgumentHelp("The guest page's TCP port; 0 picks a free one. (default: 7603)", valueName: "port"))
    var guestPort: Int?

    @Flag(help: "Never serve a guest page: picks are for members only.")
    var noGuests = false

    @Option(
        help: ArgumentHelp(
            "The LAN address linked devices reach this machine on. (default: the first private IPv4 address)",
            discussion: "Served only while a device is linked or a link of `peerctl device link` is pending.",
            valueName: "address"
        )
    )
    var deviceAddress: String?

    @Option(help: ArgumentHelp("The linked devices' TCP port; 0 picks a free one. (default: 7604)", valueName: "port"))
    var devicePort: Int?

    @Flag(help: "Never serve linked devices: `peerctl device link` is refused, linked ones get nothing.")
    var noDevices = false

    @Option(
        help: ArgumentHelp(
            "How often a token holder checks each wanted movie for news: 10s, 30m, 6h, 1d. (default: 1d)",
            discussion: "Each movie is checked at a time of its own within the interval, by one token holder.",
            valueName: "time"
        )
    )
    var newsInterval: String?

    @Flag(help: "Don't show news of wanted movies on this machine's desktop.")
    var noNotifications = false

    @Option(help: ArgumentHelp("Seconds of silence before a keepalive ping.", visibility: .hidden))
    var keepaliveInterval: Double = 10

    @Flag(
        help: ArgumentHelp("Push every operation over every session (no relay tree), to compare.", visibility: .hidden)
    )
    var flood = false

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical. (default: info)")
    var logLevel: Logger.Level?

    @Option(
        help: ArgumentHelp(
            "A JSON config file; options given here win over it.",
            discussion: "Default: $XDG_CONFIG_HOME/peerd/config.json, or ~/.config/peerd/config.json, if it exists.",
            valueName: "file"
        )
    )
    var config: String?

    func validate() throws {
        for peer in peers where PeerAddress(peer) == nil {
            throw ValidationError("--peer '\(peer)' is not host:port (e.g. 192.168.1.20:7601 or [fe80::1%eth0]:7601)")
        }
        if let problem = flags.settings.problem(naming: \.flag) { throw ValidationError(problem) }
        guard keepaliveInterval > 0 else { throw ValidationError("--keepalive-interval must be positive") }
    }

    func run() async throws {
        let environment = PeerdEnvironment.current
        // One line per event; journald's priority prefix when stderr is the journal, colour only on a TTY.
        let levels = LogLevelOverride()
        let format = LogLineFormat(style: LogLineFormat.style(for: STDERR_FILENO, environment: environment.variables))
        LoggingSystem.bootstrap { _ in LineLogHandler(level: logLevel ?? .info, override: levels, format: format) }
        let logger = Logger(label: "peerd")

        let configuration: DaemonConfiguration
        do {
            configuration = try DaemonConfiguration.load(flags, environment: environment, levels: levels)
        } catch {
            logger.critical("peerd cannot start: \(error)")
            throw ExitCode(78)  // EX_CONFIG: the unit's RestartPreventExitStatus, no restart loop
        }
        do {
            try await Daemon.run(configuration, logger: logger)
        } catch {
            logger.critical("peerd cannot start: \(error)")
            throw ExitCode(70)
        }
    }

    /// The flags as given, for ``DaemonConfiguration`` to resolve with the config file and defaults.
    var flags: DaemonFlags {
        var flags = DaemonFlags()
        flags.name = name
        flags.port = port
        flags.listenAddress = listenAddress
        flags.stateDir = stateDir
        flags.socket = socket
        flags.mdns = noMdns ? false : nil
        flags.peers = peers.compactMap { PeerAddress($0) }  // each checked in validate()
        flags.groupSecretFile = groupSecretFile
        flags.tmdbTokenFile = tmdbTokenFile
        flags.tmdbURL = tmdbURL
        flags.tmdbLanguage = tmdbLanguage
        flags.noTmdb = noTmdb
        flags.webAddresses = webAddresses.isEmpty ? nil : webAddresses
        flags.webPort = webPort
        flags.web = noWeb ? false : nil
        flags.guestAddress = guestAddress
        flags.guestPort = guestPort
        flags.guests = noGuests ? false : nil
        flags.deviceAddress = deviceAddress
        flags.devicePort = devicePort
        flags.devices = noDevices ? false : nil
        flags.newsInterval = newsInterval
        flags.notifications = noNotifications ? false : nil
        flags.logLevel = logLevel
        flags.config = config
        flags.keepaliveInterval = .milliseconds(Int(keepaliveInterval * 1000))
        flags.flood = flood
        return flags
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
