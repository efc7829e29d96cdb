import ArgumentParser
import PeerControl
import PeerdModel
import PeerdWire

struct SimilarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "similar",
        abstract: "Movies TMDB recommends to those who liked this one.",
        discussion: """
            MOVIE is \(MovieWords.accepted). Through the daemon's TMDB token, or a connected peer \
            that holds one. Add one with `peerctl add ID`.
            """
    )

    @Argument(help: MovieWords.help("The movie to start from"))
    var words: [String]

    @Option(help: "Which page (TMDB's pages hold 20).")
    var page = 1

    @OptionGroup var options: ControlOptions

    func validate() throws {
        guard (1...500).contains(page) else { throw ValidationError("--page is 1 to 500") }
        _ = try MovieWords(words)
    }

    func run() throws {
        let movie = try MovieWords(words).movie(options, command: "similar", done: "asked")
        let response = try options.request(SimilarRequest(movie: movie.id, page: page))
        guard case .movies(let movies) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        guard !movies.results.isEmpty else { return print("TMDB recommends nothing for movie \(movie.id) yet") }
        MoviePageOutput.print(movies) { "peerctl similar \(movie.id) --page \($0)" }
    }
}
