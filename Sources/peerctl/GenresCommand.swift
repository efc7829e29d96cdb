import ArgumentParser
import PeerdWire

struct GenresCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "genres",
        abstract: "TMDB's movie genres, for `peerctl discover --genre`.",
        discussion: """
            Through the daemon's TMDB token, or a connected peer that holds one. The list is kept on \
            disk for a week.
            """
    )

    @OptionGroup var options: ControlOptions

    func run() throws {
        let response = try options.request(GenresRequest())
        guard case .genres(let record) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        MoviePageOutput.keptNote(fetchedAt: record.fetchedAt, stale: record.stale)
        var table = Output.Table(["ID", "GENRE"])
        for genre in record.genres { table.add([String(genre.id), genre.name]) }
        table.print()
    }
}
