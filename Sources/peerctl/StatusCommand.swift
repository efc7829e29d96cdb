import ArgumentParser
import PeerdModel
import PeerdWire

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show this daemon's identity, port, counts and uptime."
    )

    @OptionGroup var options: ControlOptions

    func run() throws {
        guard case .status(let status) = try options.request(StatusRequest()) else { throw Output.unexpected() }
        if options.json { return Output.json(status) }
        var rows: [(String, String)] = [
            ("peer", status.peer.rawValue),
            ("name", status.name),
            ("port", String(status.port)),
            ("movies", String(status.movies)),
            ("operations", String(status.operations)),
            ("peers", "\(status.peersConnected) connected, \(status.peersKnown) known"),
            ("uptime", Output.duration(status.uptimeSeconds)),
            ("mdns", status.mdns ? "on" : "off"),
            ("tmdb", Self.tmdb(status)),
            ("web", status.web ?? "off"),
            ("state", status.stateDir),
            ("socket", status.socket),
            ("version", "\(status.version) (protocol \(status.protocolVersion))"),
        ]
        if let list = status.list {
            // `movies` and `operations` are that list's (--list).
            rows.insert(("list", "\(status.listName ?? list.short) (\(list.short))"), at: 3)
        }
        if let removed = status.removed {
            rows.insert(("group", "this peerd was \(removed); it no longer syncs with the group"), at: 2)
        }
        for (key, value) in rows { print(key.padding(to: 12) + value) }
    }

    /// Whether this daemon holds a token, and without one, whether a connected peer searches for it.
    static func tmdb(_ status: StatusRecord) -> String {
        if status.tmdb == true { return "token held: fetches movies' details" }
        let search = status.search == true ? "searches through a connected peer's" : "no connected peer holds one"
        return "no token: shows details peers fetch; " + search
    }
}
