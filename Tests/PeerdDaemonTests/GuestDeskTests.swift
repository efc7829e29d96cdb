import PeerdModel
import PeerdWeb
import PeerdWire
import Testing

@testable import PeerdDaemon

/// ``ReplicaGuestDesk`` in process: a guest's vote through the pick desk, and its refusals as the
/// guest door's HTTP statuses (proto/WEB.md, "Guests").
@Suite("The guest desk")
struct GuestDeskTests {
    static let sam = Pick.Guest(id: "0123456789abcdef", name: "Sam")

    func status(_ answer: GuestAnswer) -> (Int, String?) {
        switch answer {
        case .state: (200, nil)
        case .refused(let status, let record): (status, record.error.code)
        }
    }

    @Test func aGuestsVoteAnswersThePickAsTheGuestSeesIt() async throws {
        try await DeskWorld.run { world in
            try await world.list([603, 550, 680])
            let state = try await world.openPick()
            let card = state.deck[0].id
            guard case .state(let seen) = await world.guests.vote(on: state.id, movie: card, yes: true, by: Self.sam)
            else {
                Issue.record("the vote is made")
                return
            }
            #expect(seen.you?.votes == [String(card.rawValue): true])
            #expect(seen.voters.contains { $0.guest && $0.name == "Sam" })
            #expect(await world.guests.ownPicks().map(\.id) == [state.id])
        }
    }

    @Test func eachRefusalHasItsStatus() async throws {
        try await DeskWorld.run { world in
            try await world.list([603, 550, 680])
            let state = try await world.openPick()
            let unknown = OperationID(origin: state.id.origin, seq: 999)
            #expect(
                status(await world.guests.vote(on: unknown, movie: MovieID(603)!, yes: true, by: Self.sam)) == (
                    404, "not-found"
                )
            )
            #expect(
                status(await world.guests.vote(on: state.id, movie: MovieID(99)!, yes: true, by: Self.sam)) == (
                    400, "bad-request"
                )
            )
            _ = await world.picks.close(state.id, force: false)
            #expect(
                status(await world.guests.vote(on: state.id, movie: MovieID(603)!, yes: true, by: Self.sam)).0 == 410
            )
            #expect(await world.guests.isOpen(state.id) == false)
        }
    }

    @Test func aRankedPickIsRefusedToGuestsWithItsOpenersName() async throws {
        try await DeskWorld.run { world in
            try await world.list([603, 550, 680])
            let state = try await world.openPick(mode: .ranked)
            let answer = await world.guests.vote(on: state.id, movie: state.deck[0].id, yes: true, by: Self.sam)
            guard case .refused(409, let record) = answer else {
                Issue.record("refused with 409, not \(answer)")
                return
            }
            #expect(record.error.code == "ranked" && record.error.message.hasSuffix("ask alice"))
        }
    }
}
