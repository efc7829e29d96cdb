import PeerdModel
import PeerdWire
import Testing

@testable import PeerdDaemon

/// ``MarkDesk`` in process: one snapshot read and one write per request.
@Suite("The mark desk")
struct MarkDeskTests {
    static let dune = Movie(id: MovieID(438631)!, title: "Dune", year: 2021)

    @Test func aWantOfAnUnlistedMovieIsItsAddAndItsMarkInOneCommit() async throws {
        try await DeskWorld.run { world in
            guard case .marked(let record) = await world.marks.mark(Self.dune, [Mark(kind: .want)]) else {
                Issue.record("the want is made")
                return
            }
            #expect(record.added && record.made == 2)
            #expect(record.movie?.marks.map(\.want) == [true], "the answer shows the row after both")
            #expect(world.commits == 1 && world.store.operations.count == 2)
        }
    }

    @Test func aWholeRequestWithOnePartRefusedMakesNothing() async throws {
        try await DeskWorld.run { world in
            await #expect(throws: ReplicaService.Failure.self) {
                _ = try await world.replica.write([.add(Self.dune), .remove(MovieID(550)!)], at: 1)
            }
            #expect(world.commits == 0)
            #expect(await world.replica.snapshot.list.row(for: Self.dune.id) == nil)
            // The seqs the refused request drafted are made again by the next.
            guard case .marked(let record) = await world.marks.mark(Self.dune, [Mark(kind: .want)]) else {
                Issue.record("the want is made")
                return
            }
            #expect(record.made == 2 && world.store.operations.map(\.id.seq) == [1, 2])
        }
    }

    @Test func aClearedRatingTakesTheSeenItMadeAndANotSeenThenSaysNothingMore() async throws {
        try await DeskWorld.run { world in
            _ = await world.marks.mark(Self.dune, [Mark(kind: .rating, rating: 8)])
            let clear = [Mark(kind: .seen, set: false), Mark(kind: .rating, set: false)]
            guard case .marked(let record) = await world.marks.mark(Self.dune, clear) else {
                Issue.record("the clear is made")
                return
            }
            #expect(record.made == 1, "only the rating's clear: without it nothing says seen")
            #expect(world.commits == 2)
        }
    }

    @Test func aNotSeenAfterAClearedRatingIsMadeWhenASeenMarkOfItsOwnStands() async throws {
        try await DeskWorld.run { world in
            _ = await world.marks.mark(Self.dune, [Mark(kind: .seen), Mark(kind: .rating, rating: 8)])
            let clear = [Mark(kind: .seen, set: false), Mark(kind: .rating, set: false)]
            guard case .marked(let record) = await world.marks.mark(Self.dune, clear) else {
                Issue.record("the clear is made")
                return
            }
            #expect(record.made == 2)
            let snapshot = await world.replica.snapshot
            #expect(!snapshot.list.marks.anyone(in: [snapshot.id], has: .seen, on: Self.dune.id))
        }
    }

    @Test func aMarkThatSaysWhatTheMemberSaidAlreadyMakesNothing() async throws {
        try await DeskWorld.run { world in
            _ = await world.marks.mark(Self.dune, [Mark(kind: .want)])
            guard case .marked(let again) = await world.marks.mark(Self.dune, [Mark(kind: .want)]) else {
                Issue.record("answered")
                return
            }
            #expect(again.made == 0 && !again.added)
            #expect(world.commits == 1)
        }
    }
}
