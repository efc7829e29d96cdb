extension Replica {
    /// The step a local pick request makes, checked against the pick it names: an opening, only
    /// while no pick is voting (a group has one at a time), gets its deck shuffled by its own id and
    /// cut to ``Pick/maxDeck``; a vote, ranking or close must name
    /// an open pick, and a vote a movie of its deck.
    func pickStep(_ step: Pick, on movie: Movie, id: OperationID) throws(LocalRefusal) -> Pick {
        if step.action == .open {
            if let voting = list.picks.voting.first {
                throw .pick(.voting(voting.id, openedBy: list.names.name(of: voting.opener)))
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
            throw .pick(.noSuchPick(step.pick ?? id))
        }
        guard pick.isOpen else { throw .pick(.closed(pick.id)) }
        if step.action == .vote, pick.mode == .ranked { throw .pick(.takesRanking) }
        if step.action == .rank, pick.mode != .ranked { throw .pick(.takesVotes(pick.mode)) }
        if step.action == .vote, let guest = step.guest {
            let tally = pick.tally
            if tally.isNew(guest), tally.guestCount >= Pick.maxGuests { throw .pick(.guestsFull) }
        }
        if step.action == .vote, !pick.deck.contains(where: { $0.id == movie.id }) {
            throw .pick(.notInDeck(movie.id))
        }
        return step
    }
}
