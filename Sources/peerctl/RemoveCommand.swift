import ArgumentParser
import PeerControl
import PeerdModel
import PeerdWire

struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a movie from the shared list, for every peer.",
        discussion: """
            MOVIE is \(MovieReference.accepted). The removal is itself recorded and shared; adding the \
            movie again later brings it back.
            """
    )

    @Argument(help: MovieArgument.help("The movie to remove"))
    var movie: MovieArgument

    @OptionGroup var options: ControlOptions

    func run() throws {
        let response = try options.request(.remove(movie.id))
        guard case .removed(let movie, _) = response else { throw Output.unexpected() }
        if options.json {
            Output.json(response)
        } else {
            print("removed \(Output.describe(movie))")
        }
    }
}
