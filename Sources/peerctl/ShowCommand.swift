import ArgumentParser
import PeerControl
import PeerdModel
import PeerdWire

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Everything known about one movie: its details, who added it, and where the details came from.",
        discussion: "MOVIE is \(MovieWords.accepted)."
    )

    @Argument(help: MovieWords.help("The movie to show"))
    var words: [String]

    @OptionGroup var options: ControlOptions

    func validate() throws { _ = try MovieWords(words) }

    func run() throws {
        let movie = try MovieWords(words).movie(options, command: "show", done: "shown")
        let response = try options.request(ShowRequest(movie: movie.id))
        guard case .shown(let shown) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        let id = movie.id.rawValue
        let title = shown.details?.title ?? shown.movie?.title ?? shown.offList?.title
        print(Output.describe(id: id, title: title, year: shown.movie?.year ?? shown.offList?.year))
        let facts = Self.facts(shown)
        let width = facts.map(\.0.count).max() ?? 0
        for (label, value) in facts { print("  " + label.padding(to: width) + "  " + value) }
        if let overview = shown.details?.overview { print("\n" + Output.wrapped(overview, width: 78)) }
    }

    static func facts(_ shown: ShownRecord) -> [(String, String)] {
        var facts: [(String, String)] = []
        if let details = shown.details {
            if let original = details.originalTitle, original != details.title {
                facts.append(("original title", original))
            }
            if let date = details.releaseDate { facts.append(("released", date)) }
            if let runtime = details.runtime { facts.append(("runtime", "\(runtime) min")) }
            if !details.genres.isEmpty { facts.append(("genres", details.genres.joined(separator: ", "))) }
            if let vote = details.voteAverage { facts.append(("rating", "\(vote / 100).\(vote % 100 / 10)/10")) }
            if let imdb = details.imdbID { facts.append(("IMDb", "https://www.imdb.com/title/\(imdb)/")) }
            if let poster = details.posterURL { facts.append(("poster", poster)) }
            facts += watchFacts(details.providers)
        }
        if let movie = shown.movie {
            facts.append(("added by", movie.addedBy.joined(separator: ", ") + " at " + Output.clockTime(movie.addedAt)))
            facts += memberFacts(movie.marks, average: movie.averageRating)
        } else {
            facts.append(("list", "not on the list"))
            if let offList = shown.offList { facts += memberFacts(offList.marks, average: offList.averageRating) }
        }
        if let by = shown.describedBy, let details = shown.details {
            facts.append(
                ("details", "fetched from TMDB (\(details.language)) by \(by.name) at \(Output.clockTime(by.at))")
            )
        } else if let pending = shown.pending {
            facts.append(("details", "pending: \(pending)"))
        }
        return facts
    }
}

extension ShowCommand {
    /// Each member's marks, a line each, then the group's average rating.
    static func memberFacts(_ marks: [MarkRecord], average: Double?) -> [(String, String)] {
        var facts: [(String, String)] = marks.map { mark in
            var said: [String] = []
            if mark.want { said.append("wants") }
            if mark.seen { said.append("seen" + (mark.seenOn.map { " on \($0)" } ?? "")) }
            if let rating = mark.rating { said.append("rating \(rating)/10") }
            if mark.veto { said.append("veto") }
            return (mark.name, said.joined(separator: " / "))
        }
        if let average { facts.append(("group's rating", Output.oneDecimal(average) + "/10")) }
        return facts.isEmpty ? [("marks", "none yet: peerctl want, seen, rate or veto")] : facts
    }

    /// Where to watch it, by kind of offer, with the attribution TMDB asks for: its data is JustWatch's.
    static func watchFacts(_ providers: WatchProviders?) -> [(String, String)] {
        guard let providers else { return [] }
        let region = providers.region
        var facts: [(String, String)] = []
        for (kind, offers) in [("stream", providers.stream), ("rent", providers.rent), ("buy", providers.buy)]
        where !offers.isEmpty {
            facts.append(("\(kind) (\(region))", offers.map(\.name).joined(separator: ", ")))
        }
        if facts.isEmpty { facts.append(("watch (\(region))", "nowhere TMDB knows of")) }
        facts.append(("", "where-to-watch data by JustWatch" + (providers.link.map { ": \($0)" } ?? "")))
        return facts
    }
}

struct RefreshCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh",
        abstract: "Fetch movies' details from TMDB again: one movie's, or every listed movie's.",
        discussion:
            "Needs a TMDB token on the daemon. The fetches run in the background; `peerctl show` shows the result."
    )

    @Argument(help: MovieArgument.help("The movie; all listed movies when left out"))
    var movie: MovieArgument?

    @OptionGroup var options: ControlOptions

    func run() throws {
        let id = movie?.id
        let response = try options.request(RefreshRequest(movie: id))
        guard case .refreshing(let count) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        let what = count == 1 ? "1 movie" : "\(count) movies"
        print(
            "fetching the details of \(what) again; `peerctl show \(id.map(String.init) ?? "ID")` shows them once fetched"
        )
    }
}
