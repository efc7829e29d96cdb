import ArgumentParser
import PeerControl
import PeerdModel
import PeerdWire

struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a movie to the shared list.",
        discussion: "MOVIE is \(MovieReference.accepted)."
    )

    @Argument(help: ArgumentHelp("The movie to add.", valueName: "movie"))
    var movie: String

    @Option(help: "The movie's title, shown in the list.")
    var title: String?

    @Option(help: "The movie's release year.")
    var year: Int?

    @OptionGroup var options: ControlOptions

    func validate() throws {
        guard MovieReference.parse(movie) != nil else {
            throw ValidationError("can't understand '\(movie)' as a movie; give \(MovieReference.accepted)")
        }
        if let reason = Movie(id: MovieID(1)!, title: title, year: year).invalidReason {
            throw ValidationError(reason)
        }
    }

    func run() throws {
        let movie = Movie(id: MovieReference.parse(movie)!, title: title, year: year)
        guard case .added(let record, let operation) = try options.request(.add(movie)) else {
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
        }
    }

    struct AddResult: Encodable {
        var added: Bool
        var movie: MovieRecord
    }
}
