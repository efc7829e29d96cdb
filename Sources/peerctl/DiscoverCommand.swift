import ArgumentParser
import PeerdWire

struct DiscoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discover",
        abstract: "Browse TMDB's lists: popular now, trending, top rated, upcoming, now playing.",
        discussion: """
            Like search, it uses the daemon's TMDB token, or a connected peer that holds one. Pages \
            are kept on disk for an hour (the genres for a week): when TMDB or that peer is away, the \
            last page kept is shown with its age.

            Filters (--genre, --year, --max-runtime, --min-rating) narrow the popular and top-rated lists.

            Examples:
              peerctl discover
              peerctl discover --trending week
              peerctl discover --top-rated --genre drama
              peerctl discover --genre comedy --year 1999 --max-runtime 110 --min-rating 7 --page 2
            """
    )

    enum List: String, EnumerableFlag {
        case popular, topRated, upcoming, nowPlaying, trending

        static func help(for value: Self) -> ArgumentHelp? {
            switch value {
            case .popular: "Popular now (the default)."
            case .topRated: "The best rated of all time."
            case .upcoming: "Coming to cinemas soon."
            case .nowPlaying: "In cinemas now."
            case .trending: "Trending today, or with `week` after it, this week."
            }
        }

        var flag: String {
            switch self {
            case .popular: "--popular"
            case .topRated: "--top-rated"
            case .upcoming: "--upcoming"
            case .nowPlaying: "--now-playing"
            case .trending: "--trending"
            }
        }
    }

    enum Window: String, ExpressibleByArgument, CaseIterable {
        case day, week
    }

    @Flag var list: List = .popular

    @Argument(help: "With --trending: day (the default) or week.")
    var window: Window?

    @Option(help: ArgumentHelp("A genre's name or id (see `peerctl genres`).", valueName: "genre"))
    var genre: String?

    @Option(help: "Only movies released this year.")
    var year: Int?

    @Option(help: ArgumentHelp("Only movies this long or shorter.", valueName: "minutes"))
    var maxRuntime: Int?

    @Option(help: ArgumentHelp("Only movies TMDB's voters rate this high or higher (0 to 10).", valueName: "rating"))
    var minRating: Double?

    @Option(help: "Which page (TMDB's pages hold 20).")
    var page = 1

    @OptionGroup var options: ControlOptions

    func validate() throws {
        if window != nil, list != .trending { throw ValidationError("day or week goes with --trending") }
        guard (1...500).contains(page) else { throw ValidationError("--page is 1 to 500") }
        // The genre is resolved to its id in run(); any id stands for it here, so the list's own
        // rules (DiscoverList.invalidReason) say what filters go with which list.
        let filter = DiscoverFilter(
            genre: genre.map { _ in 1 },
            year: year,
            maxRuntime: maxRuntime,
            minRating: minRating
        )
        if let reason = DiscoverList(kind, filter: filter).invalidReason { throw ValidationError(reason) }
    }

    var kind: DiscoverList.Kind {
        switch list {
        case .popular: .popular
        case .topRated: .topRated
        case .upcoming: .upcoming
        case .nowPlaying: .nowPlaying
        case .trending: window == .week ? .trendingWeek : .trendingDay
        }
    }

    func run() throws {
        let genreID = try genre.map { try GenreChoice.resolve($0, options: options) }
        let filter = DiscoverFilter(genre: genreID, year: year, maxRuntime: maxRuntime, minRating: minRating)
        let response = try options.request(DiscoverRequest(DiscoverList(kind, filter: filter), page: page))
        guard case .movies(let movies) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        guard !movies.results.isEmpty else { return print("TMDB lists no movies for \(movies.query)") }
        MoviePageOutput.print(movies, next: command(page:))
    }

    /// This command again, for another page.
    func command(page: Int) -> String {
        var words = ["peerctl", "discover"]
        if list != .popular { words.append(list.flag) }
        if let window { words.append(window.rawValue) }
        if let genre { words += ["--genre", genre.contains(" ") ? "'\(genre)'" : genre] }
        if let year { words += ["--year", "\(year)"] }
        if let maxRuntime { words += ["--max-runtime", "\(maxRuntime)"] }
        if let minRating { words += ["--min-rating", "\(minRating)"] }
        return (words + ["--page", "\(page)"]).joined(separator: " ")
    }
}

/// A genre as typed: TMDB's id, or a name or the start of one, any case ("comedy", "sci").
enum GenreChoice {
    static func resolve(_ text: String, options: ControlOptions) throws -> Int {
        if let id = Int(text), id > 0 { return id }
        let response = try options.request(GenresRequest())
        guard case .genres(let record) = response else { throw Output.unexpected() }
        let typed = text.lowercased()
        let exact = record.genres.filter { $0.name.lowercased() == typed }
        let starting = record.genres.filter { $0.name.lowercased().hasPrefix(typed) }
        if let genre = exact.first ?? (starting.count == 1 ? starting.first : nil) { return genre.id }
        let names = record.genres.map { $0.name.lowercased() }.joined(separator: ", ")
        let problem = starting.isEmpty ? "no genre is called '\(text)'" : "'\(text)' could be more than one genre"
        Output.error("\(problem); the genres are: \(names)")
        throw ExitCode(64)
    }
}
