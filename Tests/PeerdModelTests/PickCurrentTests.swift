import PeerdModel
import Testing

/// One pick at a time: which pick a step that names none is about, and an opening refused while
/// another is voting (issue 35: two picks at once closed the wrong one).
@Suite struct PickCurrentTests {
    static let deck = [603, 550, 13].map { Movie(id: movieID($0)) }

    static func opening(by origin: PeerID, lamport: UInt64) -> Operation {
        let open = Pick.open(mode: .majority, deck: deck, voters: [Peers.alice, Peers.bob], source: "list")
        return PickTests.step(open, by: origin, seq: 1, lamport: lamport)
    }

    static func close(_ pick: OperationID, by origin: PeerID, seq: UInt64, lamport: UInt64) -> Operation {
        PickTests.step(Pick(action: .close, pick: pick), by: origin, seq: seq, lamport: lamport)
    }

    @Test func twoPicksOpenedAtOnceAgreeOnTheOlderInAnyOrder() {
        let alices = Self.opening(by: Peers.alice, lamport: 3)
        let bobs = Self.opening(by: Peers.bob, lamport: 4)
        for order in [[alices, bobs], [bobs, alices]] {
            var picks = Picks()
            for op in order { picks.apply(op) }
            #expect(picks.voting.map(\.id) == [alices.id, bobs.id])
            #expect(picks.current?.id == alices.id)
        }
    }

    @Test func onceTheGroupsPickIsClosedTheOtherOneStillVotingIsCurrent() {
        var picks = Picks()
        let alices = Self.opening(by: Peers.alice, lamport: 3)
        let bobs = Self.opening(by: Peers.bob, lamport: 4)
        picks.apply(alices)
        picks.apply(bobs)
        picks.apply(Self.close(alices.id, by: Peers.alice, seq: 2, lamport: 5))
        #expect(picks.voting.map(\.id) == [bobs.id])
        #expect(picks.current?.id == bobs.id)
        picks.apply(Self.close(bobs.id, by: Peers.bob, seq: 2, lamport: 6))
        #expect(picks.voting.isEmpty)
        #expect(picks.current?.id == bobs.id, "with none voting, the newest pick: its result stands")
    }

    @Test mutating func anOpeningWhileAPickIsVotingIsRefusedNamingIt() throws {
        var bob = Replica(id: Peers.bob, name: "bob")
        let alices = Self.opening(by: Peers.alice, lamport: 1)
        _ = try bob.admit([alices])
        bob.stage(admitted: [alices])
        _ = bob.commit([alices])
        let again = Pick.open(mode: .unanimous, deck: Self.deck, voters: [Peers.bob], source: "list")
        #expect(throws: Replica.LocalRefusal.pick(.voting(alices.id, openedBy: "alice"))) {
            try bob.draft(.pick(Operation.groupMovie, again), at: epoch)
        }
        let closed = Self.close(alices.id, by: Peers.alice, seq: 2, lamport: 2)
        _ = try bob.admit([closed])
        bob.stage(admitted: [closed])
        _ = bob.commit([closed])
        guard case .operation(let op) = try bob.draft(.pick(Operation.groupMovie, again), at: epoch) else {
            Issue.record("an opening once the voting pick closed drafted nothing")
            return
        }
        #expect(op.pick?.action == .open)
    }
}
