import ArgumentParser
import PeerControl
import PeerdModel
import PeerdQR
import PeerdWire

#if canImport(Glibc)
import Glibc
#endif

/// How a pick reads in a terminal. Every answer names the pick it is about: whose it is and when
/// it opened, so nobody acts on one pick believing it is another.
enum PickOutput {
    /// What the first line says the command did.
    enum Heading {
        case opened
        /// A `pick` found this one voting and joined it; `ignoring` when opening options were given.
        case joined(ignoring: Bool)
        case status
        case closed
    }

    static func print(_ pick: PickRecord, _ heading: Heading) {
        for line in headingLines(pick, heading) { Swift.print(line) }
        for voter in pick.voters {
            Swift.print("  \(voter.name)\(voter.guest ? " (guest)" : "")  \(voter.voted) of \(pick.deck.count)")
        }
        printOutcome(pick)
        for other in pick.others ?? [] {
            Swift.print(
                "also voting: \(other.openedBy)'s pick, opened at \(Output.clockTime(other.openedAt)) "
                    + "(`--pick \(other.openedBy)` names it)"
            )
        }
    }

    /// "alice's majority pick of 12 movies from list, opened at 20:14": the pick by name.
    static func name(_ pick: PickRecord) -> String {
        "\(pick.openedBy)'s \(pick.mode.rawValue) pick of \(movies(pick.deck.count)) from \(pick.source), "
            + "opened at \(Output.clockTime(pick.openedAt))"
    }

    private static func movies(_ count: Int) -> String { count == 1 ? "1 movie" : "\(count) movies" }

    private static func headingLines(_ pick: PickRecord, _ heading: Heading) -> [String] {
        let voters = pick.voters.map(\.name).sorted().joined(separator: ", ")
        switch heading {
        case .opened:
            let cards = pick.mode == .ranked ? "\(movies(pick.deck.count)) to rank" : "\(movies(pick.deck.count))"
            var dealt = "each voter sees \(cards)"
            if let candidates = pick.candidates, candidates > pick.deck.count {
                dealt +=
                    ", the most wanted of \(candidates) that none of you has seen"
                    + (pick.mode == .ranked ? " (--finalists to change)" : " (--deck-size to change)")
            }
            return ["opened a \(pick.mode.rawValue) pick from \(pick.source) for \(voters): \(dealt)"]
        case .joined(let ignoring):
            var lines = ["joined \(name(pick)); a group votes on one pick at a time"]
            if ignoring {
                lines.append(
                    "  your options weren't used: they open a new pick once this one is closed "
                        + "(`peerctl pick --close`, with --force if it isn't yours)"
                )
            }
            return lines
        case .status: return [name(pick) + (pick.open ? "" : ", closed")]
        case .closed: return ["closed " + name(pick)]
        }
    }

    private static func printOutcome(_ pick: PickRecord) {
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

    /// The pick `name` opened among those voting, by asking how the current one stands.
    static func pick(openedBy name: String, options: ControlOptions) throws -> OperationID {
        guard case .pickState(let current) = try options.request(PickStatusRequest(pick: nil)) else {
            throw Output.unexpected()
        }
        let picks =
            [PickBriefRecord(pick: current.pick, openedBy: current.openedBy, openedAt: current.openedAt)]
            + (current.others ?? [])
        if let match = picks.first(where: { $0.openedBy.lowercased() == name.lowercased() }) { return match.pick }
        let known = picks.map { "\($0.openedBy)'s" }.joined(separator: ", ")
        Output.error("no pick of \(name)'s is voting or last; there is \(known)")
        throw ExitCode(1)
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
