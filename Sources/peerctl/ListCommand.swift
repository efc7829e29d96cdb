import ArgumentParser
import PeerControl
import PeerdModel
import PeerdWire

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show the shared list, the same on every peer that has the same changes.",
        discussion: """
            Big lists page with --limit and --after: each page ends with the command for the next one. \
            Pages stay stable while movies are being added. --follow prints every change as it happens \
            until you press Ctrl-C. --streaming keeps the movies one of the group's services streams in \
            its region (set them with `peerctl services --region DE netflix mubi`).
            """
    )

    @Option(help: "Show at most this many movies (1-10000).")
    var limit: Int?

    @Option(help: ArgumentHelp("Show movies after this cursor, from a previous page.", valueName: "cursor"))
    var after: String?

    @Flag(help: "Keep running and print each change to the list as it happens.")
    var follow = false

    @Flag(help: "Only what the group's streaming services stream now (see `peerctl services`).")
    var streaming = false

    @Flag(help: "Only what nobody has seen (with --by: none of those members).")
    var unseen = false

    @Option(help: ArgumentHelp("With --unseen: whose seen marks count, comma-separated.", valueName: "members"))
    var by: String?

    @Option(help: ArgumentHelp("Only what one of these wants, comma-separated (`me` is you).", valueName: "members"))
    var wantedBy: String?

    @Option(help: "Order: added (the list's own), wants (most wanted first), rating (best first) or title.")
    var sort: ListQuery.Sort = .added

    @OptionGroup var options: ControlOptions

    func validate() throws {
        if let limit, !(1...10_000).contains(limit) { throw ValidationError("--limit must be between 1 and 10000") }
        if follow, limit != nil || after != nil || streaming || filter != ListFilter() {
            throw ValidationError("--follow doesn't page, filter or sort; drop the other options")
        }
        if by != nil, !unseen {
            throw ValidationError("--by goes with --unseen: `peerctl list --unseen --by alice,bob`")
        }
    }

    private var filter: ListFilter {
        func members(_ text: String?) -> [String]? {
            text.map { $0.split(separator: ",").map(String.init).filter { !$0.isEmpty } }
        }
        return ListFilter(unseen: unseen, by: members(by), wantedBy: members(wantedBy), sort: sort)
    }

    func run() throws {
        if follow { return try runFollow() }
        // Without --limit, every page is fetched: the daemon keeps each response under the frame limit.
        var movies: [MovieRecord] = []
        var cursor = after
        var total = 0
        var next: String?
        repeat {
            let request = ListRequest(limit: limit, after: cursor, streaming: streaming, filter: filter)
            guard case .list(let page, let count, let more) = try options.request(request) else {
                throw Output.unexpected()
            }
            movies += page
            total = count
            next = more
            cursor = more
        } while limit == nil && next != nil
        if options.json { return Output.json(movies) }
        if movies.isEmpty { return print(emptyNote) }
        printTable(movies)
        if let next {
            Output.note(
                "\(movies.count) of \(total) shown; next page: "
                    + "peerctl list\(options.listArgument)\(filterArguments) --limit \(limit ?? movies.count) --after \(next)"
            )
        }
    }

    /// The options that chose these rows, for the next page's command.
    private var filterArguments: String {
        var parts: [String] = []
        if streaming { parts.append("--streaming") }
        if unseen { parts.append("--unseen") }
        if let by { parts.append("--by \(by)") }
        if let wantedBy { parts.append("--wanted-by \(wantedBy)") }
        if sort != .added { parts.append("--sort \(sort.rawValue)") }
        return parts.map { " " + $0 }.joined()
    }

    private func printTable(_ movies: [MovieRecord]) {
        let streams = movies.contains { $0.streamingOn != nil }
        let marked = movies.contains { !$0.marks.isEmpty }
        var table = Output.Table(
            ["MOVIE", "TITLE", "YEAR", "ADDED BY"] + (marked ? ["WANTED BY", "SEEN BY", "RATING"] : [])
                + (streams ? ["STREAMS ON"] : [])
        )
        for movie in movies {
            let marks =
                marked
                ? [
                    Self.names(movie.marks.filter(\.want)), Self.names(movie.marks.filter(\.seen)),
                    movie.averageRating.map(Output.oneDecimal) ?? "-",
                ] : []
            table.add(
                [
                    String(movie.movieId), movie.title ?? "-", movie.year.map(String.init) ?? "-",
                    movie.addedBy.joined(separator: ", "),
                ] + marks + (streams ? [movie.streamingOn ?? "-"] : [])
            )
        }
        table.print()
    }

    private static func names(_ marks: [MarkRecord]) -> String {
        marks.isEmpty ? "-" : marks.map(\.name).joined(separator: ", ")
    }

    private var emptyNote: String {
        if after != nil { return "no more movies" }
        if filter != ListFilter() { return "no movie on the list matches" }
        if streaming {
            return "nothing on the list streams on the group's services now (`peerctl services` names them)"
        }
        return "the list is empty; add a movie with `peerctl add 603`"
    }

    private func runFollow() throws {
        Output.allowInterrupts()
        let client = try options.connect()
        do {
            try client.send(FollowRequest())
            switch try client.receive() {
            case .following: break
            case .error(let error):
                // No such list (--list): refused before the stream began.
                if options.json { Output.json(ControlResponse.error(error)) } else { Output.error(error.message) }
                throw ExitCode(1)
            default: throw Output.unexpected()
            }
            if !options.json { Output.note("following changes to the list; Ctrl-C to stop") }
            while true {
                let change: ChangeRecord
                switch try client.receive() {
                case .change(let record): change = record
                case .error(let error):
                    // peerd stopping (`shutting-down`) ends the stream, as peerd going away does.
                    Output.error(error.message)
                    throw ExitCode(69)
                default: throw Output.unexpected()
                }
                if options.json {
                    Output.jsonLine(change)
                } else {
                    print(Output.describe(change))
                }
                Output.flush()
            }
        } catch let error as ControlClient.Failure {
            Output.error(error.description)
            throw ExitCode(69)
        }
    }
}

extension ListQuery.Sort: ExpressibleByArgument {}
