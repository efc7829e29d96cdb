import PeerdModel
import PeerdWeb
import PeerdWire

/// Picks as the guest door sees them (proto/WEB.md, "Guests"): the ones this peer opened, and
/// one as a guest sees it, made from a snapshot of the replica.
extension Replica {
    /// Closed picks the door still answers `410` for, besides the open ones.
    static var closedPicksForGuests: Int { 10 }

    /// The open picks this peer opened, and the newest few it opened that are closed, this replica
    /// being the list `listID` names (nil: the group's).
    func ownPicks(onList listID: ListID?) -> [OwnPick] {
        let mine = list.picks.all.filter { $0.opener == id }
        let closed = mine.filter { !$0.isOpen }.prefix(Self.closedPicksForGuests)
        return (mine.filter(\.isOpen) + closed).map { state in
            // Only a closed pick's result is asked for (its 410); an open one's is not.
            guard !state.isOpen else { return OwnPick(id: PickOnList(state.id, on: listID), open: true, result: nil) }
            let tally = state.tally
            guard case .chosen(let movie) = tally.result else {
                return OwnPick(id: PickOnList(state.id, on: listID), open: false, result: nil)
            }
            let card = pickCard(movie, yeses: tally.yeses(for: movie.id))
            return OwnPick(id: PickOnList(state.id, on: listID), open: false, result: GuestStateRecord.Card(card))
        }
    }

    /// The pick as `guest` sees it: their own votes and next card, and nothing of any member's marks.
    func guestState(_ pick: OperationID, for guest: Pick.Guest?) -> GuestStateRecord? {
        guard let state = list.picks.pick(pick) else { return nil }
        let record = pickRecord(state, for: id)
        guard let guest else { return GuestStateRecord(record, you: nil, next: nil) }
        let voter = PickVoter.guest(id: guest.id, name: guest.name)
        // A tally folds every step of the pick: made once here, not once per card.
        let tally = state.tally
        var votes: [String: Bool] = [:]
        for movie in state.deck {
            if let yes = tally.vote(of: voter, on: movie.id) { votes[String(movie.id.rawValue)] = yes }
        }
        let voting = state.isOpen && record.outcome == "voting" && state.mode != .ranked
        let next = voting ? tally.next(for: voter) : nil
        return GuestStateRecord(
            record,
            you: GuestStateRecord.You(id: guest.id, name: guest.name, votes: votes),
            next: next.flatMap { movie in record.deck.first { $0.movieId == movie.id.rawValue } }
        )
    }
}
