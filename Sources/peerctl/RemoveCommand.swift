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

    @Argument(help: ArgumentHelp("The movie to remove.", valueName: "movie"))
    var movie: String

    @OptionGroup var options: ControlOptions

    func validate() throws {
        guard MovieReference.parse(movie) != nil else {
            throw ValidationError("can't understand '\(movie)' as a movie; give \(MovieReference.accepted)")
        }
    }

    func run() throws {
        let id = MovieReference.parse(movie)!
        let response = try options.request(.remove(id))
        guard case .removed(let movie, _) = response else { throw Output.unexpected() }
        if options.json {
            Output.json(response)
        } else {
            print("removed \(Output.describe(movie))")
        }
    }
}
