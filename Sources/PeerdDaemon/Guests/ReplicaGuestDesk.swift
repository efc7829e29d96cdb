import PeerdModel
import PeerdWeb
import PeerdWire

/// The guest door's desk: the picks this peer opened as a guest sees them, from a snapshot of the
/// replica, and a guest's vote through the ``PickDesk`` (signed as this peer's own pick step with
/// `guest`, PEER.md, "Guests' votes"), its refusals said as HTTP statuses.
struct ReplicaGuestDesk: GuestDesk {
    let picks: PickDesk

    private var replica: ReplicaService { picks.replica }

    func ownPicks() async -> [OwnPick] { await replica.snapshot.ownPicks() }

    func state(of pick: OperationID, for guest: Pick.Guest?) async -> GuestStateRecord? {
        await replica.snapshot.guestState(pick, for: guest)
    }

    func pickChanges() async -> AsyncStream<[OperationID]> { await replica.pickChanges() }

    func isOpen(_ pick: OperationID) async -> Bool { await replica.snapshot.list.picks.pick(pick)?.isOpen == true }

    func vote(on pick: OperationID, movie: MovieID, yes: Bool, by guest: Pick.Guest) async -> GuestAnswer {
        switch await picks.vote(pick, movie: movie, yes: yes, by: .guest(guest)) {
        case .success(let stepped):
            guard let now = stepped.after.guestState(pick, for: guest) else { return Self.notFound }
            return .state(now)
        case .failure(let refusal):
            return Self.answer(refusal, pick: pick, movie: movie, in: await replica.snapshot, for: guest)
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
