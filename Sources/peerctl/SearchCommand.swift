import ArgumentParser
import PeerControl
import PeerdWire

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search The Movie Database for movies to add.",
        discussion: """
            Uses the daemon's TMDB token (see `peerd --help`), or, when it has none, a connected peer that \
            holds one answers for it. Prints one of TMDB's pages of up to 20 results: id, title, year and \
            the first line of the overview. Add one with `peerctl add ID`.
            """
    )

    @Argument(help: ArgumentHelp("What to search for.", valueName: "words"))
    var words: [String]

    @Option(help: "Only movies released this year.")
    var year: Int?

    @Option(help: "Which page of results (TMDB's pages hold 20).")
    var page = 1

    @OptionGroup var options: ControlOptions

    func validate() throws {
        guard !words.joined().isEmpty else { throw ValidationError("give something to search for") }
        guard (1...500).contains(page) else { throw ValidationError("--page is 1 to 500") }
    }

    func run() throws {
        let query = words.joined(separator: " ")
        let response = try options.request(SearchRequest(query: query, year: year, page: page))
        guard case .searchResults(let results) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        let leftOut = Self.leftOutWords(results)
        guard !results.results.isEmpty else {
            return print(leftOut.map { "\($0) for '\(query)'" } ?? "TMDB knows no movie called '\(query)'")
        }
        MoviePageOutput.print(results) { next in
            "peerctl search \(query)\(year.map { " --year \($0)" } ?? "")\(options.listArgument) --page \(next)"
        }
        if let leftOut { print(leftOut) }
    }

    /// "2 results on this page left out by this list's ceiling", when the list's ceiling left any out.
    static func leftOutWords(_ results: SearchResultsRecord) -> String? {
        guard let count = results.leftOut, count > 0 else { return nil }
        return "\(count) \(count == 1 ? "result" : "results") on this page left out by this list's ceiling "
            + "(certified above it, or not at all)"
    }

    /// For an add by title that matched no one movie clearly.
    /// Why a title named no one movie on TMDB, and its candidates; `command` is what to run with
    /// one's id (`add`, `seen`, …), `done` what was not done.
    static func printCandidates(
        _ results: SearchResultsRecord,
        for text: String,
        command: String = "add",
        done: String = "added"
    ) {
        guard !results.results.isEmpty else {
            if let leftOut = leftOutWords(results) {
                return Output.error("\(leftOut) for '\(text)'; nothing was \(done)")
            }
            return Output.error("TMDB knows no movie called '\(text)'; nothing was \(done)")
        }
        Output.error("'\(text)' could be any of these; nothing was \(done). Name one by its id: peerctl \(command) ID")
        MoviePageOutput.table(results)
    }
}
