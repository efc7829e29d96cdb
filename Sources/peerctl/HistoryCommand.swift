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

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "What the group did, newest first: who added, removed, marked and watched what.",
        discussion: """
            Each line is one signed operation of the shared log, as every peer holds it. MOVIE \
            (\(MovieReference.accepted)) keeps that movie's. Operations of kinds a newer peerd made are \
            shown as such. Each page ends with the command for the next.

            Examples:
              peerctl history
              peerctl history 603
              peerctl history --since 7d --limit 100
            """
    )

    @Argument(help: MovieArgument.help("Only this movie's history")) var movie: MovieArgument?
    @Option(help: ArgumentHelp("Only what is newer: 30m, 12h, 7d, 2w, or a day YYYY-MM-DD.", valueName: "age"))
    var since: String?
    @Option(help: "Show at most this many lines (1-1000; default 50).") var limit: Int?
    @Option(help: ArgumentHelp("Show what came before this cursor, from a previous page.", valueName: "cursor"))
    var before: String?
    @OptionGroup var options: ControlOptions

    func validate() throws {
        if let since, HistoryCommand.millis(since: since) == nil {
            throw ValidationError("--since takes an age (30m, 12h, 7d, 2w) or a day (YYYY-MM-DD)")
        }
        if let limit, !(1...1_000).contains(limit) { throw ValidationError("--limit must be between 1 and 1000") }
    }

    func run() throws {
        let request = HistoryRequest(
            movie: movie?.id,
            since: since.flatMap(Self.millis(since:)),
            limit: limit,
            before: before
        )
        let response = try options.request(request)
        guard case .history(let page) = response else { throw Output.unexpected() }
        if options.json { return Output.json(response) }
        if page.entries.isEmpty { return print(before == nil ? "nothing yet" : "nothing older") }
        for entry in page.entries { print(Output.stamp(entry.at) + "  " + entry.text) }
        if let next = page.next {
            var command = ["peerctl history" + options.listArgument]
            if let movie { command.append(String(movie.id.rawValue)) }
            if let since { command.append("--since \(since)") }
            if let limit { command.append("--limit \(limit)") }
            Output.note("older: " + (command + ["--before \(next)"]).joined(separator: " "))
        }
    }

    /// The time `since` names, in milliseconds since 1970: now minus an age, or a day's local midnight.
    static func millis(since text: String) -> Int64? {
        let units: [Character: Int64] = ["m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
        if let unit = text.last.flatMap({ units[$0] }), let count = Int64(text.dropLast()), count > 0 {
            return Output.nowMillis() - count * unit * 1_000
        }
        guard Day.isDay(text) else { return nil }
        var parts = tm()
        parts.tm_year = Int32(text.prefix(4))! - 1900
        parts.tm_mon = Int32(text.dropFirst(5).prefix(2))! - 1
        parts.tm_mday = Int32(text.suffix(2))!
        parts.tm_isdst = -1
        return Int64(mktime(&parts)) * 1_000
    }
}
