import ArgumentParser
import PeerControl
import PeerdModel
import PeerdTitles
import PeerdWire

struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a movie to the shared list.",
        discussion: """
            MOVIE is \(MovieReference.accepted), or a title ("the matrix", "the matrix 1999"). A title is \
            looked up on TMDB (with the daemon's token, or a connected peer's): one clear best match is added, otherwise the \
            candidates are printed with their ids and nothing is added. The add is saved and shared at \
            once; a peer with a TMDB token fetches the movie's details in the background.
            """
    )

    @Argument(help: ArgumentHelp("The movie to add: an id, a TMDB URL or a title.", valueName: "movie"))
    var movie: [String]

    @Option(help: "The movie's title, shown in the list until its details are fetched.")
    var title: String?

    @Option(help: "The movie's release year.")
    var year: Int?

    @Flag(
        help: """
            On a list with a ceiling (`peerctl lists create kids --max-certification PG`): add a movie TMDB \
            knows no certification of. Not for a profile.
            """
    )
    var allowUnrated = false

    @OptionGroup var options: ControlOptions

    private var text: String { movie.joined(separator: " ") }

    /// The words on the command line as a movie, parsed once: `run()` takes it from here.
    private func wanted() throws -> WantedMovie {
        guard let wanted = WantedMovie(text) else {
            throw ValidationError("can't understand '\(text)' as a movie; give \(MovieReference.accepted), or a title")
        }
        return wanted
    }

    func validate() throws {
        _ = try wanted()
        if let reason = Movie(id: MovieID(1)!, title: title, year: year).invalidReason {
            throw ValidationError(reason)
        }
    }

    func run() throws {
        let movie = try resolve(try wanted())
        guard
            case .added(let record, let operation) = try options.request(
                AddRequest(movie: movie, allowUnrated: allowUnrated ? true : nil)
            )
        else {
            throw Output.unexpected()
        }
        if options.json {
            Output.json(AddResult(added: operation != nil, movie: record))
        } else if operation == nil {
            print(
                "\(Output.describe(record)) is already on the list (added by \(record.addedBy.joined(separator: ", ")))"
            )
        } else {
            print("added \(Output.describe(record))")
            if let note = detailsNote(record) { print("  \(note)") }
        }
    }

    /// Where a new row's details stand while it has none: the add never waits for TMDB. Nil when
    /// it has details, or the daemon doesn't answer `show` (an older one).
    private func detailsNote(_ record: MovieRecord) -> String? {
        guard record.posterPath == nil, let movie = MovieID(record.movieId),
            let client = try? ControlClient(socketPath: options.socketPath)
        else { return nil }
        client.list = options.actingList
        guard case .shown(let shown)? = try? client.request(ShowRequest(movie: movie)),
            shown.details == nil, let pending = shown.pending
        else { return nil }
        return "details: \(pending); `peerctl show \(record.movieId)` shows them once fetched"
    }

    /// The movie `text` names: by id (with a provisional title from a URL's slug), or by title
    /// through the daemon's TMDB search (``MovieWords/search``), in --year's year when given.
    private func resolve(_ wanted: WantedMovie) throws -> Movie {
        switch wanted {
        case .movie(let movie): return Movie(id: movie.id, title: title ?? movie.slugTitle, year: year)
        case .title(var query):
            query.year = year ?? query.year
            let match = try MovieWords.search(query, text: text, options: options, command: "add", done: "added")
            return Movie(id: match.id, title: title ?? match.title, year: year ?? match.year)
        }
    }

    struct AddResult: Encodable {
        var added: Bool
        var movie: MovieRecord
    }
}
