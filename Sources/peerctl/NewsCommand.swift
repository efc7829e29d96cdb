import ArgumentParser
import PeerControl
import PeerdModel
import PeerdWire

struct NewsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "news",
        abstract:
            "Where the movies the group wants stream now: what arrived on your services, left them, or came out to rent.",
        discussion: """
            A member that holds a TMDB token checks each movie someone wants and nobody has seen, once a day \
            (peerd --news-interval), in the group's region (`peerctl services`), and shares what changed with \
            the whole group. Newest first; reading them here counts as looking, so the page's count of new \
            news starts again. Where-to-watch data is JustWatch's, through TMDB.

            Examples:
              peerctl news
              peerctl news --follow
              peerctl news --json
            """
    )

    @Flag(help: "Keep running and print news as it arrives.") var follow = false
    @Option(help: "Show at most this many reports (1-500; default 50).") var limit: Int?
    @OptionGroup var options: ControlOptions

    func validate() throws {
        if let limit, !(1...500).contains(limit) { throw ValidationError("--limit must be between 1 and 500") }
    }

    func run() throws {
        if follow { return try runFollow() }
        let response = try options.request(NewsRequest(limit: limit, looked: true))
        guard case .news(let news) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        guard !news.items.isEmpty else {
            return print(
                "no news yet: a member with a TMDB token checks the movies someone wants once a day, "
                    + "on the group's services (`peerctl services`)"
            )
        }
        for item in news.items { print(Self.describe(item)) }
        print(news.attribution)
    }

    private func runFollow() throws {
        Output.allowInterrupts()
        let client = try options.connect()
        do {
            try client.send(NewsRequest(limit: limit ?? 10, looked: true, follow: true))
            var first = true
            while true {
                switch try client.receive() {
                case .news(let news):
                    if options.json {
                        Output.jsonLine(news)
                    } else {
                        for item in news.items.reversed() { print(Self.describe(item)) }
                        if first { Output.note("following the news; Ctrl-C to stop. \(news.attribution)") }
                    }
                    first = false
                case .error(let error):
                    Output.error(error.message)
                    throw ExitCode(69)
                default: throw Output.unexpected()
                }
                Output.flush()
            }
        } catch let error as ControlClient.Failure {
            Output.error(error.description)
            throw ExitCode(69)
        }
    }

    /// "6 Dec  Arrival (2016) is now on Netflix (DE), wanted by alice and sam"
    static func describe(_ item: NewsItemRecord) -> String {
        let wanted = NewsWords.wanted(by: item.wantedBy)
        let lines = item.lines.joined(separator: "; ")
        return "\(Output.stamp(item.read))  \(lines), \(wanted)" + (item.unread ? "  (new)" : "")
    }
}
