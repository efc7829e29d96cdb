import PeerdModel
import PeerdWeb
import PeerdWire

/// The guest door's desk: the replica's picks, and a guest's vote signed as this peer's own pick
/// step with `guest` (PEER.md, "Guests' votes").
struct ReplicaGuestDesk: GuestDesk {
    /// Guests whose votes count in one pick, at most.
    static let maxGuests = 32

    let replica: ReplicaService

    func ownPicks() async -> [OwnPick] { await replica.ownPicks() }

    func state(of pick: OperationID, for guest: Pick.Guest?) async -> GuestStateRecord? {
        await replica.guestState(pick, for: guest)
    }

    func pickChanges() async -> AsyncStream<[OperationID]> { await replica.pickChanges() }

    func isOpen(_ pick: OperationID) async -> Bool { await replica.pickIsOpen(pick) }

    func vote(on pick: OperationID, movie: MovieID, yes: Bool, by guest: Pick.Guest) async -> GuestAnswer {
        guard let state = await replica.guestState(pick, for: guest) else {
            return .refused(status: 404, GuestErrorRecord(code: "not-found", message: "there is no such pick"))
        }
        guard state.open else { return Self.closed(state) }
        guard state.mode != .ranked else {
            let message = "this pick ranks its finalists, which guests can't do in this version: ask \(state.openedBy)"
            return .refused(status: 409, GuestErrorRecord(code: "ranked", message: message))
        }
        if state.you?.votes.isEmpty != false, await replica.guestCount(pick) >= Self.maxGuests {
            let message = "this pick already has \(Self.maxGuests) guests voting, as many as it takes"
            return .refused(status: 409, GuestErrorRecord(code: "full", message: message))
        }
        guard let card = state.deck.first(where: { $0.movieId == movie.rawValue }) else {
            let message = "movie \(movie.rawValue) is not in this pick"
            return .refused(status: 400, GuestErrorRecord(code: "bad-request", message: message))
        }
        let step = Pick(action: .vote, pick: pick, yes: yes, guest: guest)
        do {
            _ = try await replica.submit(
                .pick(Movie(id: movie, title: card.title, year: card.year), step),
                at: Wallclock.millis()
            )
        } catch {
            let message = ControlResponder.wireError(error).message
            return .refused(status: 400, GuestErrorRecord(code: "bad-request", message: message))
        }
        guard let now = await replica.guestState(pick, for: guest) else { return Self.closed(state) }
        return .state(now)
    }

    private static func closed(_ state: GuestStateRecord) -> GuestAnswer {
        .refused(status: 410, .closed(result: state.result))
    }
}
