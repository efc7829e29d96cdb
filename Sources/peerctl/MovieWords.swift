import ArgumentParser
import PeerControl
import PeerdModel
import PeerdTitles
import PeerdWire

/// The MOVIE a command's words name, as people type it: an id, `tmdb:ID`, a TMDB URL, or a title
/// ("the matrix", "amelie 2001"). Every command that takes a movie takes these, parsed here once.
/// A title is looked for on the list first, so a listed movie needs no TMDB; then on TMDB, through
/// the daemon's token or a holder's. A title that names several movies names none: the candidates
/// are printed and nothing is done.
struct MovieWords {
    static let accepted = "\(MovieReference.accepted), or a title (\"the matrix\", \"amelie 2001\")"

    let text: String
    let wanted: WantedMovie

    init(_ words: [String]) throws {
        text = words.joined(separator: " ")
        guard let wanted = WantedMovie(text) else {
            throw ValidationError("can't understand '\(text)' as a movie; give \(Self.accepted)")
        }
        self.wanted = wanted
    }

    static func help(_ purpose: String) -> ArgumentHelp {
        ArgumentHelp("\(purpose): \(accepted).", valueName: "movie")
    }

    /// The movie the words name. `command` and `done` word the refusal when a title names no one
    /// movie; `listOnly` when only a listed movie makes sense (`remove`).
    func movie(_ options: ControlOptions, command: String, done: String, listOnly: Bool = false) throws -> Movie {
        let query: TitleQuery
        switch wanted {
        case .movie(let movie): return Movie(id: movie.id, title: movie.slugTitle)
        case .title(let title): query = title
        }
        let listed = try options.everyRow().filter { query.names($0.title, year: $0.year) }
        if listed.count == 1, let id = MovieID(listed[0].movieId) {
            return Movie(id: id, title: listed[0].title, year: listed[0].year)
        }
        if listed.count > 1 {
            Output.error(
                "\(listed.count) movies on the list are called '\(text)'; nothing was \(done). Name one by its id:"
            )
            for row in listed { Output.note("  peerctl \(command) \(row.movieId)    \(Output.describe(row))") }
            throw ExitCode(1)
        }
        if listOnly {
            Output.error("no movie on the list is called '\(text)'; nothing was \(done) (`peerctl list` shows them)")
            throw ExitCode(1)
        }
        return try Self.search(query, text: text, options: options, command: command, done: done)
    }

    /// The one movie TMDB's results for `query` clearly mean, or the candidates printed and exit 1.
    static func search(
        _ query: TitleQuery,
        text: String,
        options: ControlOptions,
        command: String,
        done: String
    ) throws -> Movie {
        guard
            case .searchResults(let page) = try options.request(
                SearchRequest(query: query.title, year: query.year, page: 1)
            )
        else { throw Output.unexpected() }
        guard let match = query.bestMatch(in: page.results), let id = MovieID(match.movieId) else {
            SearchCommand.printCandidates(page, for: text, command: command, done: done)
            throw ExitCode(1)
        }
        return Movie(id: id, title: match.title, year: match.year)
    }
}
