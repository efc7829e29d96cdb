import ArgumentParser
import PeerdImport
import PeerdModel
import PeerdWire

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ExportFormat: ExpressibleByArgument {}

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the shared list to a file: for Letterboxd, as CSV, or as JSON with every field.",
        discussion: """
            letterboxd writes the columns Letterboxd's importer reads (Title, Year, tmdbID, imdbID, \
            WatchedDate, Rating10), with your own dates and ratings. csv writes one row per listed \
            movie with your marks, then who added, wants and saw it. json writes every field of every \
            row, with every member's marks. `peerctl import` reads all three back (only your own \
            marks come in: a member signs only their own). IMPORT.md says what each column holds \
            (docs/ in the source, /usr/share/doc/peerd/ once the package is installed).

            Examples:
              peerctl export > list.json
              peerctl export --format letterboxd --mine > letterboxd.csv
              peerctl export --format csv --output list.csv
            """
    )

    @Option(help: "letterboxd, csv or json.") var format: ExportFormat = .json
    @Flag(help: "Only the movies you added or marked.") var mine = false
    @Option(help: ArgumentHelp("Write here instead of to standard output.", valueName: "file")) var output: String?
    @OptionGroup var options: ControlOptions

    /// Whose movies `--mine` keeps, and whose dates and ratings Letterboxd's file gets: this
    /// machine's own member, or the profile `--profile` names.
    func member() throws -> (peer: PeerID, name: String) {
        guard let profile = options.actingProfile else {
            guard case .status(let me) = try options.request(StatusRequest()) else { throw Output.unexpected() }
            return (me.peer, me.name)
        }
        guard case .members(let here) = try options.request(ProfilesRequest()) else { throw Output.unexpected() }
        let named = here.members.first { $0.name == profile || $0.peer.rawValue.hasPrefix(profile.lowercased()) }
        guard let named else { throw Output.unexpected() }
        return (named.peer, named.name ?? profile)
    }

    func run() throws {
        let me = try member()
        let movies = try options.everyRow()
        let bytes = ExportWriter.write(movies, format: format, me: me.peer, myName: me.name, mine: mine)
        guard let output else {
            try Output.bytes(bytes)
            return
        }
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            Output.error("can't write \(output): \(error)")
            throw ExitCode(73)
        }
        let count = mine ? "your movies" : "\(movies.count) movies"
        Output.note("wrote \(count) to \(output) (\(format.rawValue), \(bytes.count) bytes)")
    }
}
