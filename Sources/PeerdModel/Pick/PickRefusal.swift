/// Why a pick step can't be made here: the rules of ``Replica/pickStep(_:on:id:)``, the only place
/// they are checked. Each door says them in its own words (a CLI message, an HTTP status).
package enum PickRefusal: Error, Hashable, Sendable {
    /// A step names a pick this replica doesn't hold.
    case noSuchPick(OperationID)
    /// The pick is closed or has its result: its result stands.
    case closed(OperationID)
    /// A vote on a movie its deck doesn't hold.
    case notInDeck(MovieID)
    /// A yes or no on a ranked pick, which takes a ranking of its finalists.
    case takesRanking
    /// A ranking on a pick that takes yes or no on each movie.
    case takesVotes(Pick.Mode)
    /// A new guest's vote on a pick that counts ``Pick/maxGuests`` guests already.
    case guestsFull
    /// An opening while another pick is voting (a group votes on one at a time): that one.
    case voting(OperationID, openedBy: String)
}
