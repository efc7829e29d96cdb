import PeerdModel
import PeerdWeb
import PeerdWire

/// The guest door's desk: the picks this peer opened on any list it holds (the group's, or another:
/// proto/PEER.md, "Lists") as a guest sees them, from a snapshot of that list's replica, and a
/// guest's vote through the ``PickDesk`` on that list (signed as this peer's own pick step with
/// `guest`, PEER.md, "Guests' votes"), its refusals said as HTTP statuses.
struct ReplicaGuestDesk: GuestDesk {
    let picks: PickDesk
    /// Every list held here.
    let spaces: ListSpaces

    func ownPicks() async -> [OwnPick] {
        var own: [OwnPick] = []
        for list in await spaces.everyList() { own += await view(of: list).ownPicks(onList: list.listID) }
        return own
    }

    func state(of pick: PickOnList, for guest: Pick.Guest?) async -> GuestStateRecord? {
        guard let list = await spaces.holder(of: pick) else { return nil }
        return await view(of: list).guestState(pick.id, for: guest)
    }

    func pickChanges() async -> AsyncStream<[PickOnList]> { await spaces.pickChanges() }

    func isOpen(_ pick: PickOnList) async -> Bool {
        await spaces.holder(of: pick)?.groupSnapshot.list.picks.pick(pick.id)?.isOpen == true
    }

    /// `list` as its members see it: with the group's names and marks (``ReplicaService/snapshot``).
    private func view(of list: ReplicaService) async -> Replica {
        await ActingList.$current.withValue(list) { await spaces.group.snapshot }
    }

    func vote(on pick: PickOnList, movie: MovieID, yes: Bool, by guest: Pick.Guest) async -> GuestAnswer {
        guard let list = await spaces.holder(of: pick) else { return Self.notFound }
        // The pick desk reads and writes the list the vote is on.
        return await ActingList.$current.withValue(list) {
            await vote(on: pick.id, movie: movie, yes: yes, by: guest, in: list)
        }
    }

    private func vote(
        on pick: OperationID,
        movie: MovieID,
        yes: Bool,
        by guest: Pick.Guest,
        in replica: ReplicaService
    ) async -> GuestAnswer {
        switch await picks.vote(pick, movie: movie, yes: yes, by: .guest(guest)) {
        case .success(let stepped):
            guard let now = stepped.after.guestState(pick, for: guest) else { return Self.notFound }
            return .state(now)
        case .failure(let refusal):
            return Self.answer(refusal, pick: pick, movie: movie, in: await view(of: replica), for: guest)
        }
    }

    private static let notFound = GuestAnswer.refused(
        status: 404,
        GuestErrorRecord(code: "not-found", message: "there is no such pick")
    )

    /// `refusal` as the guest door says it (proto/WEB.md, "Guests").
    private static func answer(
        _ refusal: PickDesk.Refusal,
        pick: OperationID,
        movie: MovieID,
        in snapshot: Replica,
        for guest: Pick.Guest
    ) -> GuestAnswer {
        switch refusal {
        case .noPick, .rule(.noSuchPick): return notFound
        case .rule(.closed):
            return .refused(status: 410, .closed(result: snapshot.guestState(pick, for: guest)?.result))
        case .rule(.takesRanking):
            let opener = snapshot.list.picks.pick(pick).map { snapshot.memberName($0.opener) } ?? "the opener"
            let message = "this pick ranks its finalists, which guests can't do in this version: ask \(opener)"
            return .refused(status: 409, GuestErrorRecord(code: "ranked", message: message))
        case .rule(.guestsFull):
            return .refused(status: 409, GuestErrorRecord(code: "full", message: PickRefusal.guestsFull.message))
        case .rule(.notInDeck):
            let message = "movie \(movie.rawValue) is not in this pick"
            return .refused(status: 400, GuestErrorRecord(code: "bad-request", message: message))
        default:
            let message = PickDesk.words(for: refusal, in: snapshot, asking: "there is no such pick").message
            return .refused(status: 400, GuestErrorRecord(code: "bad-request", message: message))
        }
    }
}
