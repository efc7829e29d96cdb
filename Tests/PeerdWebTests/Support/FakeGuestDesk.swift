import PeerdModel
import PeerdTestKit
import PeerdWeb
import PeerdWire
import Synchronization

/// A stand-in for the daemon behind the guest door: one pick of two movies, open until ``close(result:)``,
/// that records the votes it is given. The real desk is tested end to end in integration/guests.
final class FakeGuestDesk: GuestDesk {
    struct Vote: Hashable {
        var movie: Int
        var yes: Bool
        var guest: Pick.Guest
    }

    static let pick = PickOnList(OperationID(origin: PeerID("a11ce000000000000000000000000001")!, seq: 7))
    static let deck = [603, 550]

    private let state = Mutex<(open: Bool, result: GuestStateRecord.Card?, votes: [Vote])>((true, nil, []))
    /// The pick's changes, as ``pickChanges()`` streams them.
    let changes = EventFeed<[PickOnList]>()
    /// One event each time the door subscribes to the changes (an event stream began listening).
    let subscriptions = EventFeed<Void>()
    /// One event each time the door asked whether the pick is open, after the answer was read.
    let openChecks = EventFeed<Void>()

    var votes: [Vote] { state.withLock { $0.votes } }

    func ownPicks() async -> [OwnPick] {
        state.withLock { [OwnPick(id: Self.pick, open: $0.open, result: $0.result)] }
    }

    func state(of pick: PickOnList, for guest: Pick.Guest?) async -> GuestStateRecord? {
        guard pick == Self.pick else { return nil }
        return record(for: guest)
    }

    func vote(on pick: PickOnList, movie: MovieID, yes: Bool, by guest: Pick.Guest) async -> GuestAnswer {
        guard Self.deck.contains(movie.rawValue) else {
            return .refused(status: 400, GuestErrorRecord(code: "bad-request", message: "\(movie) is not in the deck"))
        }
        state.withLock { $0.votes.append(Vote(movie: movie.rawValue, yes: yes, guest: guest)) }
        changes.send([pick])
        return .state(record(for: guest))
    }

    func isOpen(_ pick: PickOnList) async -> Bool {
        let open = state.withLock { $0.open }
        openChecks.send(())
        return open
    }

    func pickChanges() async -> AsyncStream<[PickOnList]> {
        let stream = changes.subscribe()
        subscriptions.send(())
        return stream
    }

    /// Closes the pick with `result` (or none chosen), and says so to every listener.
    func close(result: GuestStateRecord.Card?) {
        state.withLock { ($0.open, $0.result) = (false, result) }
        changes.send([Self.pick])
    }

    /// The pick as `guest` sees it: `you` with their votes.
    private func record(for guest: Pick.Guest?) -> GuestStateRecord {
        let (open, votes) = state.withLock { ($0.open, $0.votes) }
        let cards = Self.deck.map { #"{"movieId":\#($0),"title":"Movie \#($0)"}"# }.joined(separator: ",")
        var record = try! WireCoding.decode(
            GuestStateRecord.self,
            from: Array(
                (#"{"mode":"majority","openedBy":"alice","open":\#(open),"outcome":"voting","deck":[\#(cards)],"#
                    + #""voters":[{"name":"alice","guest":false,"voted":2}]}"#).utf8
            )
        )
        if let guest {
            let mine = votes.filter { $0.guest == guest }.map { (String($0.movie), $0.yes) }
            record.you = .init(id: guest.id, name: guest.name, votes: Dictionary(mine) { _, last in last })
        }
        return record
    }

    /// A result card, as the door shows it on a closed pick.
    static func card(_ movie: Int, _ title: String, _ year: Int) -> GuestStateRecord.Card {
        try! WireCoding.decode(
            GuestStateRecord.Card.self,
            from: Array(#"{"movieId":\#(movie),"title":"\#(title)","year":\#(year)}"#.utf8)
        )
    }
}
