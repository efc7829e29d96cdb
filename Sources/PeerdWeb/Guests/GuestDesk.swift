package import PeerdModel
package import PeerdWire

/// What the guest door asks of the daemon (proto/WEB.md, "Guests"): the picks this peer opened, a
/// pick as a guest sees it, and a guest's vote, which the daemon signs as its own.
package protocol GuestDesk: Sendable {
    /// The picks this peer opened, each with whether it is open.
    func ownPicks() async -> [OwnPick]
    /// `pick` as a guest sees it; `you` and `next` for `guest`.
    func state(of pick: PickOnList, for guest: Pick.Guest?) async -> GuestStateRecord?
    func vote(on pick: PickOnList, movie: MovieID, yes: Bool, by guest: Pick.Guest) async -> GuestAnswer
    func isOpen(_ pick: PickOnList) async -> Bool
    /// The ids of the picks each commit changed, from now on.
    func pickChanges() async -> AsyncStream<[PickOnList]>
}

/// A pick this peer opened.
package struct OwnPick: Hashable, Sendable {
    package var id: PickOnList
    package var open: Bool
    /// Once it ended: the chosen movie, if one was.
    package var result: GuestStateRecord.Card?

    package init(id: PickOnList, open: Bool, result: GuestStateRecord.Card?) {
        self.id = id
        self.open = open
        self.result = result
    }
}

/// A guest's request answered: the pick as they see it now, or a refusal with its HTTP status.
package enum GuestAnswer: Sendable {
    case state(GuestStateRecord)
    case refused(status: Int, GuestErrorRecord)
}
