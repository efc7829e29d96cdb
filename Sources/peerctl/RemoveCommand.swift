import ArgumentParser
import PeerControl
import PeerdModel
import PeerdWire

struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a movie from the shared list, for every peer.",
        discussion: """
            MOVIE is \(MovieWords.accepted); a title names a movie on the list. The removal is itself recorded and shared; adding the \
            movie again later brings it back.
            """
    )

    @Argument(help: MovieWords.help("The movie to remove"))
    var movie: [String]

    @OptionGroup var options: ControlOptions

    func validate() throws { _ = try MovieWords(movie) }

    func run() throws {
        let named = try MovieWords(movie).movie(options, command: "remove", done: "removed", listOnly: true)
        let response = try options.request(RemoveRequest(movie: named.id))
        guard case .removed(let movie, _) = response else { throw Output.unexpected() }
        if options.json {
            Output.json(response)
        } else {
            print("removed \(Output.describe(movie))")
        }
    }
}
