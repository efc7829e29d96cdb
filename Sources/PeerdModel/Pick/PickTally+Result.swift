/// A pick's result by its mode (proto/PEER.md, "Picks"): the same on every peer that holds the
/// same operations.
extension PickTally {
    package enum Outcome: Hashable, Sendable {
        /// Still voting: no result yet.
        case pending
        /// The movie the group chose.
        case chosen(Movie)
        /// Voting ended with no movie chosen.
        case none
    }

    package var result: Outcome {
        switch mode {
        case .unanimous: unanimousResult
        case .majority: majorityResult
        case .ranked: rankedResult
        }
    }

    /// The first movie of the deck every voter said yes to; none once everyone is through the
    /// deck, or the pick closed, without one.
    private var unanimousResult: Outcome {
        if let match = deck.first(where: { movie in voters.allSatisfy { vote(of: $0, on: movie.id) == true } }) {
            return .chosen(match)
        }
        return everyoneDone || !isOpen ? .none : .pending
    }

    /// Once everyone is through the deck or the pick closed: the most yeses; the deck's order (a
    /// seeded shuffle) breaks ties.
    private var majorityResult: Outcome {
        guard everyoneDone || !isOpen else { return .pending }
        let counted = deck.map { (movie: $0, yeses: yeses(for: $0.id)) }
        guard let most = counted.map(\.yeses).max(), most > 0 else { return .none }
        return .chosen(counted.first { $0.yeses == most }!.movie)
    }

    /// Once everyone ranked or the pick closed: an instant runoff over the rankings.
    private var rankedResult: Outcome {
        guard everyoneDone || !isOpen else { return .pending }
        let ballots = voters.compactMap(ranking(of:)).filter { !$0.isEmpty }
        guard let winner = InstantRunoff.winner(of: ballots, among: deck.map(\.id)) else { return .none }
        return deck.first { $0.id == winner }.map(Outcome.chosen) ?? .none
    }
}

/// Instant-runoff voting: while no candidate holds more than half of the ballots still counting,
/// the one with the fewest first preferences is dropped (of those tied, the latest in the
/// candidates' order: the deck's), and its ballots count for their next preference.
package enum InstantRunoff {
    package static func winner(of ballots: [[MovieID]], among candidates: [MovieID]) -> MovieID? {
        var remaining = candidates
        while !remaining.isEmpty {
            let firsts = ballots.compactMap { ballot in ballot.first { remaining.contains($0) } }
            guard !firsts.isEmpty else { return nil }
            let tally = remaining.map { candidate in (candidate, firsts.count { $0 == candidate }) }
            let most = tally.map(\.1).max()!
            if most * 2 > firsts.count { return tally.first { $0.1 == most }!.0 }
            let fewest = tally.map(\.1).min()!
            let dropped = tally.last { $0.1 == fewest }!.0
            remaining.removeAll { $0 == dropped }
        }
        return nil
    }
}
