import Foundation
import PeerdModel
import PeerdWire
import Testing

@testable import PeerdDaemon

/// ``PickDesk`` in process: the member's and the guests' steps, each one write, and the pick's
/// rules refused as the model says them.
@Suite("The pick desk")
struct PickDeskTests {
    static let movies = [603, 550, 680, 13, 155]

    @Test func anOpeningDealsTheListsMostWantedAndAVoteIsOneCommit() async throws {
        try await DeskWorld.run { world in
            try await world.list(Self.movies)
            let state = try await world.openPick()
            #expect(Set(state.deck.map(\.id.rawValue)) == Set(Self.movies))
            let before = world.commits
            guard case .success(let stepped) = await world.picks.vote(nil, movie: nil, yes: true, by: .member) else {
                Issue.record("the vote is made")
                return
            }
            #expect(world.commits == before + 1)
            #expect(stepped.pick == state.id)
            let me = PickVoter.member(await world.replica.snapshot.id)
            #expect(stepped.after.list.picks.pick(state.id)?.tally.progress(of: me) == 1)
        }
    }

    @Test func aSecondOpeningJoinsThePickThatIsVoting() async throws {
        try await DeskWorld.run { world in
            try await world.list(Self.movies)
            let first = try await world.openPick()
            let commits = world.commits
            guard case .success(.joined(let joined, _)) = await world.picks.open(PickOpening()) else {
                Issue.record("the second opening joins")
                return
            }
            #expect(joined.id == first.id && world.commits == commits)
        }
    }

    @Test func aVoterWhoVotedOnEveryCardIsToldToNameOne() async throws {
        try await DeskWorld.run { world in
            try await world.list([603, 550])
            _ = try await world.openPick()
            for _ in 0..<2 { _ = await world.picks.vote(nil, movie: nil, yes: false, by: .member) }
            guard case .failure(.votedAll) = await world.picks.vote(nil, movie: nil, yes: true, by: .member) else {
                Issue.record("refused: voted on every card")
                return
            }
        }
    }

    @Test func theModelsRulesComeBackAsRefusalsAndMakeNothing() async throws {
        try await DeskWorld.run { world in
            try await world.list(Self.movies)
            let state = try await world.openPick()
            let guest = Pick.Guest(id: "0123456789abcdef", name: "Sam")
            let commits = world.commits
            let outside = await world.picks.vote(state.id, movie: MovieID(99)!, yes: true, by: .guest(guest))
            guard case .failure(.rule(.notInDeck(let movie))) = outside else {
                Issue.record("a movie outside the deck is refused, not \(outside)")
                return
            }
            #expect(movie.rawValue == 99)
            let ranking = await world.picks.vote(state.id, movie: nil, yes: nil, ranking: [MovieID(603)!], by: .member)
            guard case .failure(.rule(.takesVotes(.majority))) = ranking else {
                Issue.record("a ranking of a majority pick is refused, not \(ranking)")
                return
            }
            #expect(world.commits == commits)
            _ = await world.picks.close(nil, force: false)
            guard case .failure(.rule(.closed(state.id))) = await world.picks.close(nil, force: false) else {
                Issue.record("a closed pick takes no close")
                return
            }
        }
    }

    @Test func aPickTakesAsManyGuestsAsItsCapAndTheirLaterVotes() async throws {
        try await DeskWorld.run { world in
            try await world.list(Self.movies)
            let state = try await world.openPick()
            let card = state.deck[0].id
            func guest(_ n: Int) -> Pick.Guest { Pick.Guest(id: String(format: "%016x", n), name: "guest \(n)") }
            for n in 0..<Pick.maxGuests {
                guard case .success = await world.picks.vote(state.id, movie: card, yes: true, by: .guest(guest(n)))
                else {
                    Issue.record("guest \(n) votes")
                    return
                }
            }
            let commits = world.commits
            let late = await world.picks.vote(state.id, movie: card, yes: true, by: .guest(guest(Pick.maxGuests)))
            guard case .failure(.rule(.guestsFull)) = late else {
                Issue.record("one guest more is refused, not \(late)")
                return
            }
            #expect(world.commits == commits)
            guard case .success = await world.picks.vote(state.id, movie: card, yes: false, by: .guest(guest(0))) else {
                Issue.record("a guest who voted votes again")
                return
            }
        }
    }
}
