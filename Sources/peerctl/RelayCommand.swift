import ArgumentParser
import PeerdWire

struct RelayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay",
        abstract: "The group's relays: how members in other houses reach each other.",
        discussion: """
            Peers on one LAN find each other by mDNS; a friend in another house is behind another \
            router. A relay is Syncthing's relay server (Debian's syncthing-relaysrv) on any machine \
            with a public address: each member joins it, and a member that can't reach another \
            directly asks the relay for a session. The relay only forwards bytes: peerd's own TLS \
            and admission run inside, end to end, so the relay sees device ids, addresses and the \
            amount of traffic, never the list (docs/USAGE.md, "Another house").

            A relay is a group setting: add it on any member and every member joins it, and invite \
            codes made after carry it, so `peerctl join` works from the other house. Direct paths \
            (the LAN, a forwarded port, an overlay such as Tailscale with `peerctl connect`) are \
            always tried first; a relayed session gives way to a direct one when one works.

            On the relay machine:
              sudo apt install syncthing-relaysrv
              strelaysrv -pools="" -listen=:22067        (a private relay: in no public pool)
            It prints its URL (relay://0.0.0.0:22067/?id=…); put the machine's public address in it.

            Examples:
              peerctl relay                                        the relays, and how this peer stands with each
              peerctl relay add relay://203.0.113.7:22067/?id=XXXXXXX-…
              peerctl relay remove relay://203.0.113.7:22067/?id=XXXXXXX-…
            """,
        subcommands: [RelayShowCommand.self, RelayAddCommand.self, RelayRemoveCommand.self],
        defaultSubcommand: RelayShowCommand.self
    )

    /// Sends `request` (an add or a removal) and prints the relays after it, under `heading`.
    static func change(_ request: RelayRequest, _ options: ControlOptions, heading: String) throws {
        let response = try options.request(request)
        guard case .relays(let relays) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        print(heading)
        describe(relays).forEach { print("  " + $0) }
    }

    /// One line per relay: its URL, how this peer stands with it, and the sessions on it.
    static func describe(_ relays: [RelayRecord]) -> [String] {
        guard !relays.isEmpty else {
            return ["the group has no relay; members in another house need one: see `peerctl relay --help`"]
        }
        let now = Output.nowMillis()
        return relays.map { relay in
            var state: String
            switch relay.state {
            case .joining: state = "joining"
            case .joined:
                state = "joined"
                if let since = relay.joinedSince { state += " \(Output.duration(Double(now - since) / 1000)) ago" }
                if let latency = relay.latencyMs { state += ", \(RelayRecord.words(ms: latency))" }
            case .retrying:
                state =
                    "retrying" + (relay.retryIn.map { $0 < 1 ? " in a moment" : " in \(Output.duration($0))" } ?? "")
                if let error = relay.lastError { state += ": \(error)" }
            }
            guard relay.state == .joined else { return "\(relay.url)  \(state)" }
            let sessions = relay.sessions == 1 ? "1 session" : "\(relay.sessions) sessions"
            return "\(relay.url)  \(state)  (\(sessions))"
        }
    }
}

struct RelayShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "The group's relays, and whether this peer is joined to each (latency, sessions)."
    )

    @OptionGroup var options: ControlOptions

    func run() throws {
        let response = try options.request(RelayRequest())
        guard case .relays(let relays) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        RelayCommand.describe(relays).forEach { print($0) }
    }
}

struct RelayAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a relay for the whole group: every member joins it."
    )

    @Argument(help: ArgumentHelp("The relay's URL as strelaysrv prints it, with its public address.", valueName: "url"))
    var url: String

    @OptionGroup var options: ControlOptions

    func run() throws {
        try RelayCommand.change(
            RelayRequest(add: url),
            options,
            heading: "The group's relays now (every member joins them; new invite codes carry them):"
        )
    }
}

struct RelayRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Take a relay out of the group's: every member leaves it."
    )

    @Argument(help: ArgumentHelp("The relay's URL, as `peerctl relay` shows it.", valueName: "url"))
    var url: String

    @OptionGroup var options: ControlOptions

    func run() throws {
        try RelayCommand.change(RelayRequest(remove: url), options, heading: "The group's relays now:")
    }
}
