import ArgumentParser
import PeerControl
import PeerdModel
import PeerdWire

struct WatchedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watched",
        abstract: "Log a movie night: everyone who was there has seen the movie.",
        discussion: """
            MOVIE is \(MovieWords.accepted). One watch is logged, signed by you, naming you and \
            the members --with names (by name, id, or id prefix; `peerctl peers` lists them). It \
            counts as a seen mark of each of them, and shows in `peerctl history`.

            Example:
              peerctl watched 603 --with alice,bob --on yesterday
            """
    )

    @Argument(help: MovieWords.help("The movie you watched")) var movie: [String]
    @Option(
        name: .customLong("with"),
        parsing: .upToNextOption,
        help: ArgumentHelp("Who else was there, comma-separated.", valueName: "members")
    )
    var present: [String] = []
    @Option(help: ArgumentHelp("The day: YYYY-MM-DD, today or yesterday (default: none).", valueName: "day"))
    var on: String?
    @OptionGroup var options: ControlOptions

    private var members: [String] {
        present.flatMap { $0.split(separator: ",") }.map(String.init).filter { !$0.isEmpty }
    }

    func validate() throws {
        _ = try MovieWords(movie)
        try Marking.validateDay(on)
        if members.count >= Watch.maxPresent {
            throw ValidationError(
                "a watch names at most \(Watch.maxPresent) members: you and \(Watch.maxPresent - 1) others"
            )
        }
    }

    func run() throws {
        let wanted = try MovieWords(movie).movie(options, command: "watched", done: "logged")
        let response = try options.request(WatchRequest(movie: wanted, with: members, on: on.flatMap(Marking.day)))
        guard case .marked(let marked) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        let name = marked.movie.map(Output.describe) ?? "movie \(marked.movieId)"
        print("logged a watch of \(name)" + (members.isEmpty ? "" : " with " + members.joined(separator: ", ")))
        if let record = marked.movie {
            for line in Marking.summary(record) { print("  " + line) }
        }
    }
}
