/// What a pick's steps add up to: each voter's newest vote on each movie and newest ranking, the
/// close, and the result by the pick's mode. Steps ordered after the close (by the list's order)
/// do not count. A guest's step counts only when the opener signed it; a vote on a movie outside
/// the deck does not count.
package struct PickTally: Sendable {
    package let mode: Pick.Mode
    package let deck: [Movie]
    package let closedAt: OrderKey?
    /// Everyone the pick waits for: the members asked, and everyone else (a member not asked, or a
    /// guest) whose vote or ranking counts.
    package let voters: [PickVoter]
    private var votes: [PickVoter: [MovieID: Bool]] = [:]
    private var rankings: [PickVoter: [MovieID]] = [:]

    init(_ state: PickState) {
        mode = state.mode
        deck = state.deck
        let closedAt = state.closedAt
        self.closedAt = closedAt
        let inDeck = Set(state.deck.map(\.id))
        var newestVote: [PickVoter: [MovieID: (key: OrderKey, yes: Bool)]] = [:]
        var newestRanking: [PickVoter: (key: OrderKey, ranking: [MovieID])] = [:]
        for op in state.steps.values {
            guard let step = op.pick, closedAt.map({ op.orderKey < $0 }) ?? true else { continue }
            let voter: PickVoter
            if let guest = step.guest {
                guard op.id.origin == state.opener else { continue }
                voter = .guest(id: guest.id, name: guest.name)
            } else {
                voter = .member(op.id.origin)
            }
            if step.action == .vote, let yes = step.yes, inDeck.contains(op.movie.id) {
                if let current = newestVote[voter]?[op.movie.id], current.key > op.orderKey { continue }
                newestVote[voter, default: [:]][op.movie.id] = (op.orderKey, yes)
            } else if step.action == .rank, let ranking = step.ranking {
                if let current = newestRanking[voter], current.key > op.orderKey { continue }
                newestRanking[voter] = (op.orderKey, ranking.filter(inDeck.contains))
            }
        }
        votes = newestVote.mapValues { $0.mapValues(\.yes) }
        rankings = newestRanking.mapValues(\.ranking)
        voters = Set(state.members.map(PickVoter.member)).union(votes.keys).union(rankings.keys).sorted()
    }

    package var isOpen: Bool { closedAt == nil }

    package func vote(of voter: PickVoter, on movie: MovieID) -> Bool? { votes[voter]?[movie] }

    /// How many guests have a vote that counts.
    package var guestCount: Int {
        voters.count {
            if case .guest = $0 { true } else { false }
        }
    }

    /// Whether `guest` has no vote that counts yet (a new guest takes one of ``Pick/maxGuests``).
    package func isNew(_ guest: Pick.Guest) -> Bool {
        votes[.guest(id: guest.id, name: guest.name)]?.isEmpty ?? true
    }

    package func ranking(of voter: PickVoter) -> [MovieID]? { rankings[voter] }

    /// How many of the deck's movies `voter` has voted on; ranked: the deck, once they ranked.
    package func progress(of voter: PickVoter) -> Int {
        if mode == .ranked { return rankings[voter] == nil ? 0 : deck.count }
        return votes[voter]?.count ?? 0
    }

    package func yeses(for movie: MovieID) -> Int { voters.count { votes[$0]?[movie] == true } }

    /// Whether every voter has gone through the whole deck (ranked: has ranked).
    package var everyoneDone: Bool { voters.allSatisfy { progress(of: $0) == deck.count } }

    /// `voter`'s next movie to vote on: the first of the deck they haven't voted on.
    package func next(for voter: PickVoter) -> Movie? { deck.first { votes[voter]?[$0.id] == nil } }
}
