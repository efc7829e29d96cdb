import ArgumentParser
import PeerControl
import PeerdModel
import PeerdWire

struct PickCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pick",
        abstract: "Choose tonight's movie together: open a pick, see how it stands, close it.",
        discussion: """
            A pick offers a deck of movies in the same shuffled order to every voter, who says yes \
            or no to each (`peerctl vote yes`, or on the page). By default the deck is the 12 most \
            wanted movies of the shared list that no voter has seen or vetoed (--deck-size to \
            change), and the voters are the members connected now. Modes: unanimous (the first movie everyone said yes to), majority (once everyone \
            went through the deck, or at --close: the most yeses) and ranked (each voter ranks the \
            finalists, `peerctl vote --rank`; an instant runoff decides). Votes are operations like \
            marks: every peer computes the same result, and a restart loses nothing.

            A group has one pick voting at a time: `peerctl pick` while one is voting joins it \
            instead of opening another, and every command acts on it and names it (whose it is, \
            when it opened). A pick is its opener's to close; closing someone else's takes --force. \
            If two were opened at once (or on both sides of a network split), the older one is the \
            group's and the other is listed beside it; --pick NAME acts on the one NAME opened.

            Examples:
              peerctl pick
              peerctl pick --mode unanimous --max-runtime 120 --streaming
              peerctl pick --deck genre:comedy --with alice,bob
              peerctl pick --status
              peerctl pick --deck-size 6
              peerctl pick --close
              peerctl pick --close --force   (close a pick someone else opened)
              peerctl pick --watched         (log the result as watched by those who voted)
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
    @Option(help: "Cards each voter sees in a majority or unanimous pick: the most wanted this many (default 12).")
    var deckSize: Int?
    @Flag(help: "Show how the voting pick stands, or the last one's result.") var status = false
    @Flag(help: "Close the voting pick: the votes so far decide. Only its opener, unless --force.") var close = false
    @Flag(help: "With --close: close a pick another member opened.") var force = false
    @Flag(help: "Log the last pick's result as watched today by the members who voted.") var watched = false
    @Option(
        name: .customLong("pick"),
        help: ArgumentHelp("With --status, --close or --watched: the pick NAME opened.", valueName: "name")
    )
    var openedBy: String?
    @OptionGroup var options: ControlOptions

    func validate() throws {
        if [status, close, watched].count(where: \.self) > 1 {
            throw ValidationError("choose one of --status, --close and --watched")
        }
        if let finalists, !(1...Pick.maxFinalists).contains(finalists) {
            throw ValidationError("--finalists is 1 to \(Pick.maxFinalists)")
        }
        if let deckSize, !(1...Pick.maxDeck).contains(deckSize) {
            throw ValidationError("--deck-size is 1 to \(Pick.maxDeck)")
        }
        if deckSize != nil, mode == .ranked { throw ValidationError("a ranked pick's deck is its --finalists") }
        if DeckSource(deck) == nil { throw ValidationError("--deck is \(DeckSource.accepted), not '\(deck)'") }
        if force, !close { throw ValidationError("--force goes with --close") }
        if openedBy != nil, !(status || close || watched) {
            throw ValidationError("--pick goes with --status, --close or --watched")
        }
    }

    /// Whether an opening option was given: one that a pick already voting can't take.
    private var opensOwn: Bool {
        mode != .majority || deck != "list" || maxRuntime != nil || genre != nil || streaming || voters != nil
            || finalists != nil || deckSize != nil
    }

    func run() throws {
        if watched { return try logWatch() }
        let named = try openedBy.map { try PickOutput.pick(openedBy: $0, options: options) }
        let request =
            status
            ? ControlRequest(PickStatusRequest(pick: named))
            : close
                ? ControlRequest(PickCloseRequest(pick: named, force: force))
                : ControlRequest(
                    PickOpening(
                        mode: mode,
                        deck: deck,
                        maxRuntime: maxRuntime,
                        genre: genre,
                        streaming: streaming,
                        with: voters.map { $0.split(separator: ",").map(String.init) },
                        finalists: finalists,
                        deckSize: deckSize
                    )
                )
        let response = try options.request(request)
        guard case .pickState(let pick) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        let heading: PickOutput.Heading =
            status ? .status : close ? .closed : pick.joined == true ? .joined(ignoring: opensOwn) : .opened
        PickOutput.print(pick, heading)
        PickOutput.printGuests(pick.guests)
    }

    /// Logs the result as watched by the members who voted; only one of them may (a watch names
    /// whoever logs it).
    private func logWatch() throws {
        let named = try openedBy.map { try PickOutput.pick(openedBy: $0, options: options) }
        guard case .pickState(let pick) = try options.request(PickStatusRequest(pick: named)) else {
            throw Output.unexpected()
        }
        guard let result = pick.result, let movie = MovieID(result.movieId) else {
            let why = pick.outcome == "none" ? "ended with no movie chosen" : "has no result yet"
            Output.error("\(PickOutput.name(pick)) \(why); nothing to log (`peerctl pick --status`)")
            throw ExitCode(1)
        }
        guard case .status(let me) = try options.request(StatusRequest()) else { throw Output.unexpected() }
        guard pick.voters.contains(where: { $0.peer == me.peer }) else {
            Output.error(
                "you didn't vote in \(PickOutput.name(pick)); one of its voters logs it with `peerctl pick --watched`"
            )
            throw ExitCode(1)
        }
        let members = pick.voters.compactMap { $0.peer?.rawValue }
        let response = try options.request(
            WatchRequest(
                movie: Movie(id: movie, title: result.title, year: result.year),
                with: members,
                on: Marking.day("today")
            )
        )
        guard case .marked = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        let others = pick.voters.filter { !$0.guest && $0.peer != me.peer }.map(\.name).sorted()
        print(
            "logged a watch of \(PickOutput.title(result))"
                + (others.isEmpty ? "" : " with " + others.joined(separator: ", "))
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
        let response = try options.request(VoteRequest(pick: nil, movie: movie?.id, yes: yes, ranking: ranking))
        guard case .pickState(let pick) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        PickOutput.print(pick, .status)
    }
}

extension Pick.Mode: ExpressibleByArgument {}
