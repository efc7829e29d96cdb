import ArgumentParser
import PeerControl
import PeerdModel
import PeerdQR
import PeerdWire

#if canImport(Glibc)
import Glibc
#endif

struct PickCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pick",
        abstract: "Choose tonight's movie together: open a pick, see how it stands, close it.",
        discussion: """
            A pick offers a deck of movies in the same shuffled order to every voter, who says yes \
            or no to each (`peerctl vote yes`, or on the page). By default the deck is the shared \
            list less what any voter has seen or vetoed, and the voters are the members connected \
            now. Modes: unanimous (the first movie everyone said yes to), majority (once everyone \
            went through the deck, or at --close: the most yeses) and ranked (each voter ranks the \
            finalists, `peerctl vote --rank`; an instant runoff decides). Votes are operations like \
            marks: every peer computes the same result, and a restart loses nothing.

            Examples:
              peerctl pick
              peerctl pick --mode unanimous --max-runtime 120 --streaming
              peerctl pick --deck genre:comedy --with alice,bob
              peerctl pick --status
              peerctl pick --close
              peerctl pick --watched          (log the result as watched by the members who voted)
            """
    )

    @Option(help: "unanimous, majority or ranked.") var mode: Pick.Mode = .majority
    @Option(
        help: ArgumentHelp("list, popular, trending or genre:NAME (TMDB's, through a token holder).", valueName: "deck")
    )
    var deck = "list"
    @Option(help: "Only movies this long or shorter, in minutes.") var maxRuntime: Int?
    @Option(help: "Only this genre (TMDB's name), from the list's details.") var genre: String?
    @Flag(help: "Only what the group's services stream.") var streaming = false
    @Option(
        name: .customLong("with"),
        help: ArgumentHelp(
            "The members who vote, comma-separated (default: those connected now).",
            valueName: "members"
        )
    )
    var voters: String?
    @Option(help: "A ranked pick's finalists: the most wanted this many (default 5, at most 10).") var finalists: Int?
    @Flag(help: "Show how the open pick stands, or the last one's result.") var status = false
    @Flag(help: "Close the open pick: the votes so far decide.") var close = false
    @Flag(help: "Log the last pick's result as watched today by the members who voted.") var watched = false
    @OptionGroup var options: ControlOptions

    func validate() throws {
        if [status, close, watched].count(where: \.self) > 1 {
            throw ValidationError("choose one of --status, --close and --watched")
        }
        if let finalists, !(1...Pick.maxFinalists).contains(finalists) {
            throw ValidationError("--finalists is 1 to \(Pick.maxFinalists)")
        }
    }

    func run() throws {
        if watched { return try logWatch() }
        let request: ControlRequest =
            status
            ? .pickStatus(pick: nil)
            : close
                ? .pickClose(pick: nil)
                : .pick(
                    PickOpening(
                        mode: mode,
                        deck: deck,
                        maxRuntime: maxRuntime,
                        genre: genre,
                        streaming: streaming,
                        with: voters.map { $0.split(separator: ",").map(String.init) },
                        finalists: finalists
                    )
                )
        let response = try options.request(request)
        guard case .pickState(let pick) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        PickOutput.print(pick, opened: !status && !close)
        PickOutput.printGuests(pick.guests)
    }

    /// Logs the result as watched by the members who voted; only one of them may (a watch names
    /// whoever logs it).
    private func logWatch() throws {
        guard case .pickState(let pick) = try options.request(.pickStatus(pick: nil)) else { throw Output.unexpected() }
        guard let result = pick.result, let movie = MovieID(result.movieId) else {
            Output.error("the last pick has no result yet (`peerctl pick --status`)")
            throw ExitCode(1)
        }
        guard case .status(let me) = try options.request(.status) else { throw Output.unexpected() }
        guard pick.voters.contains(where: { $0.peer == me.peer }) else {
            Output.error("you didn't vote in the last pick; one of its voters logs it with `peerctl pick --watched`")
            throw ExitCode(1)
        }
        let members = pick.voters.compactMap { $0.peer?.rawValue }
        let response = try options.request(
            .watch(Movie(id: movie, title: result.title, year: result.year), with: members, on: Marking.day("today"))
        )
        guard case .marked = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        print(
            "logged a watch of \(PickOutput.title(result)) with \(pick.voters.filter { !$0.guest }.map(\.name).joined(separator: ", "))"
        )
    }
}

struct VoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vote",
        abstract: "Vote on the open pick: yes or no to your next movie (or to MOVIE), or rank the finalists.",
        discussion: """
            Each vote is yours and goes to the whole group; a second vote on a movie replaces the \
            first. MOVIE is \(MovieReference.accepted).

            Examples:
              peerctl vote yes
              peerctl vote no 603
              peerctl vote --rank 603,550,13
            """
    )

    @Argument(help: "yes or no.") var answer: String?
    @Argument(help: MovieArgument.help("The movie (default: your next one)")) var movie: MovieArgument?
    @Option(help: ArgumentHelp("A ranked pick: the finalists, best first, comma-separated.", valueName: "movies"))
    var rank: String?
    @OptionGroup var options: ControlOptions

    private var yes: Bool? {
        switch answer?.lowercased() {
        case "yes", "y": true
        case "no", "n": false
        default: nil
        }
    }

    private var ranking: [MovieID]? {
        rank.map { $0.split(separator: ",").compactMap { MovieReference.parse(String($0)) } }
    }

    func validate() throws {
        if rank != nil {
            guard answer == nil, movie == nil else { throw ValidationError("--rank goes alone") }
            guard let ranking, !ranking.isEmpty, ranking.count == rank?.split(separator: ",").count else {
                throw ValidationError("--rank takes movie ids, best first: --rank 603,550,13")
            }
        } else if yes == nil {
            throw ValidationError("say yes or no: `peerctl vote yes`")
        }
    }

    func run() throws {
        let response = try options.request(.vote(pick: nil, movie: movie?.id, yes: yes, ranking: ranking))
        guard case .pickState(let pick) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        PickOutput.print(pick, opened: false)
    }
}

/// How a pick reads in a terminal.
enum PickOutput {
    static func print(_ pick: PickRecord, opened: Bool) {
        let movies = pick.deck.count == 1 ? "1 movie" : "\(pick.deck.count) movies"
        if opened {
            Swift.print(
                "opened a \(pick.mode.rawValue) pick of \(movies) from \(pick.source) for \(pick.voters.map(\.name).joined(separator: ", "))"
            )
        } else {
            Swift.print(
                "\(pick.mode.rawValue) pick of \(movies) from \(pick.source), opened by \(pick.openedBy) at \(Output.clockTime(pick.openedAt))"
                    + (pick.open ? "" : ", closed")
            )
        }
        for voter in pick.voters {
            Swift.print("  \(voter.name)\(voter.guest ? " (guest)" : "")  \(voter.voted) of \(pick.deck.count)")
        }
        switch pick.outcome {
        case "chosen": Swift.print("result: \(pick.result.map(title) ?? "?")")
        case "none": Swift.print("result: no movie; nobody agreed on one")
        default:
            if let next = pick.next {
                Swift.print("your next: \(title(next))" + (next.runtime.map { ", \($0) min" } ?? ""))
                if !next.wantedBy.isEmpty { Swift.print("  wanted by \(next.wantedBy.joined(separator: ", "))") }
                if let overview = next.overview { Swift.print("  " + Output.firstLine(overview, width: 76)) }
                Swift.print("  vote with `peerctl vote yes` or `peerctl vote no`")
            } else if pick.mode == .ranked {
                Swift.print(
                    "rank the finalists: peerctl vote --rank "
                        + pick.deck.map { String($0.movieId) }.joined(separator: ",")
                )
            } else {
                Swift.print("you are through the deck; waiting for the others")
            }
        }
        if pick.outcome != "voting" {
            for movie in pick.deck where (movie.yeses ?? 0) > 0 {
                Swift.print("  \(movie.yeses ?? 0) yes  \(title(movie))")
            }
        }
    }

    static func title(_ movie: PickMovieRecord) -> String {
        Output.describe(id: movie.movieId, title: movie.title, year: movie.year)
    }

    /// The guest link, as a URL and a QR code to scan from the screen (black on white in a
    /// terminal whatever its colours), or why there is none.
    static func printGuests(_ guests: PickGuestsRecord?) {
        guard let guests else { return }
        guard let url = guests.url else {
            if let problem = guests.problem { Swift.print("no guest link: \(problem)") }
            return
        }
        Swift.print("guests vote on their phones: scan this, or open \(url)")
        if let code = QRCode(url) { Swift.print(code.terminalText(colors: isatty(STDOUT_FILENO) == 1)) }
    }
}
extension Pick.Mode: ExpressibleByArgument {}
