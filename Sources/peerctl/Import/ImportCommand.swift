import ArgumentParser
import PeerControl
import PeerdImport
import PeerdWire

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Bring in a watch list, watched movies and ratings from Letterboxd, IMDb, TMDB or Trakt.",
        discussion: """
            The format is known from the file's content: Letterboxd's export ZIP (watchlist → want; \
            watched and diary → seen, with their dates; ratings → your ratings, stars × 2), one of its \
            CSVs, IMDb's list and ratings exports, TMDB's CSV export, Trakt's JSON export, and what \
            `peerctl export` writes. IMPORT.md says how each column maps (docs/ in the source, \
            /usr/share/doc/peerd/ once the package is installed).

            Movies named only by title and year (Letterboxd) are looked up on TMDB, through a peer \
            with a token when this peerd has none; a match needs the title and the year to agree, \
            and anything else is reported, never guessed. The rows peerd could not resolve go into \
            NAME.unresolved.csv in this folder: fill in tmdbID (or fix Title and Year) and import it.

            Importing the same file again adds nothing, and an import that was stopped continues \
            where it was. Only your own marks are made: a member signs only their own.

            Examples:
              peerctl import letterboxd-export.zip
              peerctl import ratings.csv --dry-run
              peerctl import watchlist.json --json
            """
    )

    @Argument(help: ArgumentHelp("The file to import.", valueName: "file")) var file: String
    @Flag(help: "Say what would happen; write nothing.") var dryRun = false
    @OptionGroup var options: ControlOptions

    func run() throws {
        let source: ImportFile
        do {
            source = try ImportFile.open(file)
        } catch {
            Output.error(error.description)
            throw ExitCode(65)
        }
        let client = try options.connect()
        var run = ImportRun(source: source, file: file, dryRun: dryRun, json: options.json)
        run.start()
        var next = 0
        var size = ImportRun.firstBatch
        while next < source.rows.count {
            let rows = Array(source.rows[next..<min(next + size, source.rows.count)])
            let request = ImportBatch(id: source.fingerprint, rows: rows, dryRun: dryRun)
            let asked = ContinuousClock.now
            let response: ControlResponse
            do {
                response = try client.request(request)
            } catch {
                run.progress.finish()
                Output.error(Self.lost(error, at: next, of: source.rows.count))
                throw ExitCode(69)
            }
            switch response {
            case .imported(let record): run.take(record.results, for: rows)
            case .error(let error):
                run.progress.finish()
                Output.error(error.message)
                throw ExitCode(1)
            default: throw Output.unexpected()
            }
            next += rows.count
            size = ImportRun.nextBatch(after: rows.count, took: ContinuousClock.now - asked)
        }
        try run.finish()
    }

    /// What to say when peerd stops answering after `done` of `total` rows.
    static func lost(_ error: ControlClient.Failure, at done: Int, of total: Int) -> String {
        guard case .connectionLost = error else {
            return error.description + "; run the same command again to continue"
        }
        return "peerd closed the connection after \(done) of \(total) rows: it stopped or restarted. "
            + "Once it runs again (`peerctl status` says), the same command continues where this one stopped"
    }
}
