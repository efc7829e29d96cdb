extension Replica {
    /// The step a local pick request makes, checked against the pick it names: an opening, only
    /// while no pick is voting (a group has one at a time), gets its deck shuffled by its own id and
    /// cut to ``Pick/maxDeck``; a vote, ranking or close must name
    /// an open pick, and a vote a movie of its deck.
    func pickStep(_ step: Pick, on movie: Movie, id: OperationID) throws(LocalRefusal) -> Pick {
        if step.action == .open {
            if let voting = list.picks.voting.first {
                throw .pickVoting(voting.id, openedBy: list.names.name(of: voting.opener))
            }
            let deck = Array(PickDeck.shuffled(step.deck ?? [], seed: id).prefix(Pick.maxDeck))
            let opening = Pick.open(
                mode: step.mode ?? .majority,
                deck: deck,
                voters: step.voters ?? [],
                source: step.source ?? "list"
            )
            if let reason = opening.invalidReason(movie: movie) { throw .invalid(reason) }
            return opening
        }
        if let reason = step.invalidReason(movie: movie) { throw .invalid(reason) }
        guard let named = step.pick, let pick = list.picks.pick(named) else {
            throw .invalid("there is no such pick; `peerctl pick --status` shows the open one")
        }
        guard pick.isOpen else { throw .invalid("that pick is closed; its result stands (`peerctl pick --status`)") }
        if step.action == .vote, !pick.deck.contains(where: { $0.id == movie.id }) {
            throw .invalid("movie \(movie.id.rawValue) is not in this pick's deck")
        }
        if step.action == .vote, pick.mode == .ranked {
            throw .invalid("a ranked pick takes a ranking of its finalists, best first (`peerctl vote --rank …`)")
        }
        if step.action == .rank, pick.mode != .ranked {
            throw .invalid("a \(pick.mode.rawValue) pick takes yes or no on each movie, not a ranking")
        }
        return step
    }
}
