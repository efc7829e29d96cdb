import ArgumentParser
import PeerControl
import PeerdModel
import PeerdWire

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `want`, `seen`, `rate`, `veto` and `unmark`: this member's own marks. Each goes to the whole group.
enum Marking {
    static let shared = """
        Your marks are yours: peerd signs them as you, and every member of the group sees them \
        (`peerctl show MOVIE`, `peerctl list`). Nobody else can set or clear them. Your rating, or a \
        watch someone logs with you in it (`peerctl watched`), counts as you having seen the movie.
        """

    /// Sends `marks` of `movie` and prints what they did.
    static func send(_ marks: [Mark], of words: [String], options: ControlOptions, command: String) throws {
        let wanted = try MovieWords(words).movie(options, command: command, done: "marked")
        let response = try options.request(MarkRequest(movie: wanted, marks: marks))
        guard case .marked(let marked) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        let name = marked.movie.map(Output.describe) ?? "movie \(marked.movieId)"
        if marked.added { print("added \(name) to the list") }
        let said = marks.map(\.description).joined(separator: ", ")
        print(marked.made == 0 ? "\(name): your marks say \(said) already" : "\(name): \(said)")
        if let record = marked.movie {
            for line in summary(record) { print("  " + line) }
        } else {
            print("  it isn't on the list; the mark shows once someone adds it")
        }
    }

    /// The group's marks on a row, a line each: who wants it, who has seen it, ratings, vetoes.
    static func summary(_ record: MovieRecord) -> [String] {
        let marks = record.marks
        var lines: [String] = []
        let wants = marks.filter(\.want).map(\.name)
        if !wants.isEmpty { lines.append("wanted by " + wants.joined(separator: ", ")) }
        let seen = marks.filter(\.seen).map { $0.name + ($0.seenOn.map { " (\($0))" } ?? "") }
        if !seen.isEmpty { lines.append("seen by " + seen.joined(separator: ", ")) }
        let rated = marks.compactMap { mark in mark.rating.map { "\(mark.name) \($0)" } }
        if let average = record.averageRating {
            lines.append("rated " + rated.joined(separator: ", ") + " (average \(Output.oneDecimal(average)))")
        }
        let vetoes = marks.filter(\.veto).map(\.name)
        if !vetoes.isEmpty { lines.append("vetoed by " + vetoes.joined(separator: ", ")) }
        return lines.isEmpty ? ["no marks yet"] : lines
    }

    /// `YYYY-MM-DD`, `today` or `yesterday` as a day; nil for anything else.
    static func day(_ text: String) -> String? {
        let offsets = ["today": 0, "yesterday": -1]
        guard let offset = offsets[text.lowercased()] else { return Day.isDay(text) ? text : nil }
        return Day.adding(offset, to: Wallclock.today())
    }

    /// Checks an `--on` day: a day, and not one after tomorrow.
    static func validateDay(_ text: String?) throws {
        guard let text else { return }
        guard let day = day(text) else { throw ValidationError("--on takes YYYY-MM-DD, today or yesterday") }
        if let reason = Day.futureReason(day, today: Wallclock.today()) { throw ValidationError("--on: \(reason)") }
    }
}

struct WantCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "want",
        abstract: "Say you want to watch a movie (it is added to the list when it isn't on it).",
        discussion: "MOVIE is \(MovieWords.accepted). \(Marking.shared) Undo with `peerctl unmark MOVIE --want`."
    )

    @Argument(help: MovieWords.help("The movie you want to watch")) var movie: [String]
    @OptionGroup var options: ControlOptions

    func validate() throws { _ = try MovieWords(movie) }

    func run() throws { try Marking.send([Mark(kind: .want)], of: movie, options: options, command: "want") }
}

struct SeenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seen",
        abstract: "Say you have seen a movie, and when, and optionally rate it.",
        discussion: """
            MOVIE is \(MovieWords.accepted). \(Marking.shared) To log a movie night for everyone \
            who was there, use `peerctl watched MOVIE --with alice,bob`.
            """
    )

    @Argument(help: MovieWords.help("The movie you have seen")) var movie: [String]
    @Option(help: ArgumentHelp("The day you saw it: YYYY-MM-DD, today or yesterday.", valueName: "day"))
    var on: String?
    @Option(help: "Your rating, 1-10.") var rating: Int?
    @OptionGroup var options: ControlOptions

    func validate() throws {
        _ = try MovieWords(movie)
        try Marking.validateDay(on)
        if let rating, !(1...10).contains(rating) { throw ValidationError("--rating must be between 1 and 10") }
    }

    func run() throws {
        var marks = [Mark(kind: .seen, on: on.flatMap(Marking.day))]
        if let rating { marks.append(Mark(kind: .rating, rating: rating)) }
        try Marking.send(marks, of: movie, options: options, command: "seen")
    }
}

struct RateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rate",
        abstract: "Rate a movie from 1 to 10.",
        discussion: """
            MOVIE is \(MovieWords.accepted). \(Marking.shared) A rating counts as having seen the \
            movie (`peerctl unmark MOVIE --seen` says you haven't). The list shows the group's average \
            (`peerctl list --sort rating`). Undo with `peerctl unmark MOVIE --rating`.

            Examples:
              peerctl rate 603 8
              peerctl rate the matrix 8
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The movie to rate, then your rating 1-10: \(MovieWords.accepted).",
            valueName: "movie rating"
        )
    )
    var words: [String]
    @OptionGroup var options: ControlOptions

    private var rating: Int? { words.last.flatMap { Int($0) }.flatMap { (1...10).contains($0) ? $0 : nil } }

    func validate() throws {
        guard words.count >= 2 else { throw ValidationError("give the movie, then your rating: `peerctl rate 603 8`") }
        guard rating != nil else { throw ValidationError("a rating is between 1 and 10, last: `peerctl rate 603 8`") }
        _ = try MovieWords(words.dropLast())
    }

    func run() throws {
        try Marking.send(
            [Mark(kind: .rating, rating: rating)],
            of: Array(words.dropLast()),
            options: options,
            command: "rate"
        )
    }
}

struct VetoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "veto",
        abstract: "Say a movie is not for you.",
        discussion: "MOVIE is \(MovieWords.accepted). \(Marking.shared) Undo with `peerctl unmark MOVIE --veto`."
    )

    @Argument(help: MovieWords.help("The movie you veto")) var movie: [String]
    @OptionGroup var options: ControlOptions

    func validate() throws { _ = try MovieWords(movie) }

    func run() throws { try Marking.send([Mark(kind: .veto)], of: movie, options: options, command: "veto") }
}

struct UnmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unmark",
        abstract: "Clear your marks on a movie: all of them, or those you name.",
        discussion: "MOVIE is \(MovieWords.accepted). Only your own marks can be cleared."
    )

    @Argument(help: MovieWords.help("The movie")) var movie: [String]
    @Flag(help: "Clear that you want it.") var want = false
    @Flag(help: "Clear that you have seen it.") var seen = false
    @Flag(help: "Clear your veto.") var veto = false
    @Flag(help: "Clear your rating.") var rating = false
    @OptionGroup var options: ControlOptions

    func validate() throws { _ = try MovieWords(movie) }

    func run() throws {
        let flags: [(Bool, Mark.Kind)] = [(want, .want), (seen, .seen), (rating, .rating), (veto, .veto)]
        let named = flags.filter(\.0).map(\.1)
        let kinds = named.isEmpty ? Mark.Kind.allCases : named
        try Marking.send(kinds.map { Mark(kind: $0, set: false) }, of: movie, options: options, command: "unmark")
    }
}
