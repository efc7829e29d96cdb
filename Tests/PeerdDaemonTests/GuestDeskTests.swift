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
            guard
                case .state(let seen) = await world.guests.vote(
                    on: PickOnList(state.id),
                    movie: card,
                    yes: true,
                    by: Self.sam
                )
            else {
                Issue.record("the vote is made")
                return
            }
            #expect(seen.you?.votes == [String(card.rawValue): true])
            #expect(seen.voters.contains { $0.guest && $0.name == "Sam" })
            #expect(await world.guests.ownPicks().map(\.id) == [PickOnList(state.id)])
        }
    }

    /// Each list keeps its own chains, so a pick on another list can have the id of one on the
    /// group's: the door names a pick with its list, and each is found, voted on and listed as its own.
    @Test func aPickOnAnotherListIsItsOwnWhenItsIdIsAPickOnTheGroupsList() async throws {
        let friends = ListID("0f1e2d3c4b5a69788796a5b4c3d2e1f0")!
        try await DeskWorld.run(lists: [friends]) { world in
            try await world.list([603, 550])
            let onGroup = try await world.openPick()
            _ = await world.picks.close(onGroup.id, force: true)
            let list = try #require(world.lists[friends])
            let movies = [680, 13, 155].map { Movie(id: MovieID($0)!, title: "Movie \($0)", year: 2000) }
            _ = try await list.write(
                [.defineList(ListDefinition(name: "friends", nonce: String(repeating: "0", count: 32)))]
                    + movies.map { .add($0) },
                at: 1_700_000_000_000
            )
            let onList = try await ActingList.$current.withValue(list) { try await world.openPick() }
            try #require(onList.id == onGroup.id, "the two picks share an id: \(onList.id), \(onGroup.id)")
            let pick = PickOnList(onList.id, on: friends)
            #expect(await world.guests.isOpen(pick))
            #expect(await world.guests.isOpen(PickOnList(onGroup.id)) == false)
            let deck = await world.guests.state(of: pick, for: nil)?.deck.map(\.movieId)
            #expect(Set(deck ?? []) == [680, 13, 155])
            #expect(status(await world.guests.vote(on: pick, movie: MovieID(680)!, yes: true, by: Self.sam)).0 == 200)
            #expect(Set(await world.guests.ownPicks().map(\.id)) == [PickOnList(onGroup.id), pick])
        }
    }

    @Test func eachRefusalHasItsStatus() async throws {
        try await DeskWorld.run { world in
            try await world.list([603, 550, 680])
            let state = try await world.openPick()
            let unknown = OperationID(origin: state.id.origin, seq: 999)
            #expect(
                status(await world.guests.vote(on: PickOnList(unknown), movie: MovieID(603)!, yes: true, by: Self.sam))
                    == (
                        404, "not-found"
                    )
            )
            #expect(
                status(await world.guests.vote(on: PickOnList(state.id), movie: MovieID(99)!, yes: true, by: Self.sam))
                    == (
                        400, "bad-request"
                    )
            )
            _ = await world.picks.close(state.id, force: false)
            #expect(
                status(await world.guests.vote(on: PickOnList(state.id), movie: MovieID(603)!, yes: true, by: Self.sam))
                    .0 == 410
            )
            #expect(await world.guests.isOpen(PickOnList(state.id)) == false)
        }
    }

    @Test func aRankedPickIsRefusedToGuestsWithItsOpenersName() async throws {
        try await DeskWorld.run { world in
            try await world.list([603, 550, 680])
            let state = try await world.openPick(mode: .ranked)
            let answer = await world.guests.vote(
                on: PickOnList(state.id),
                movie: state.deck[0].id,
                yes: true,
                by: Self.sam
            )
            guard case .refused(409, let record) = answer else {
                Issue.record("refused with 409, not \(answer)")
                return
            }
            #expect(record.error.code == "ranked" && record.error.message.hasSuffix("ask alice"))
        }
    }
}
