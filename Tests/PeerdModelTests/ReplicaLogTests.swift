import PeerdModel
import Testing

/// The replica holds each operation once: adds the list holds are found there, everything else
/// (removals, cancelled adds, adds that arrive after their removal) is kept aside. Whatever the
/// path, `operations(from:seqs:)` must give back exactly what was committed.
@Suite struct ReplicaLogTests {
    var alice = Replica(id: Peers.alice, name: "alice")

    @Test mutating func everyOperationComesBackWhateverTheListDidWithIt() throws {
        let matrix = makeAdd(Peers.bob, 1, lamport: 1, movie: 603, title: "The Matrix")
        let fightClub = makeAdd(Peers.bob, 2, lamport: 2, movie: 550)
        let carolsToo = makeAdd(Peers.carol, 1, lamport: 2, movie: 603)
        let removal = makeRemove(Peers.bob, 3, lamport: 3, movie: 603, cancelling: [matrix])
        // Carol cancels an add of Bob's the replica has not received yet; it arrives afterwards.
        let lateAdd = makeAdd(Peers.bob, 4, lamport: 4, movie: 11)
        let early = makeRemove(Peers.carol, 2, lamport: 5, movie: 11, cancelling: [lateAdd])
        let reAdd = makeAdd(Peers.bob, 5, lamport: 6, movie: 603)
        let bobs = [matrix, fightClub, removal, lateAdd, reAdd]
        let carols = [carolsToo, early]

        _ = alice.commit(try alice.admit([matrix, fightClub, carolsToo]))
        _ = alice.commit(try alice.admit([removal, early]))
        _ = alice.commit(try alice.admit([lateAdd, reAdd]))

        #expect(alice.operations(from: Peers.bob, seqs: 1...5) == bobs)
        #expect(alice.operations(from: Peers.carol, seqs: 1...2) == carols)
        #expect(alice.operations(from: Peers.bob, seqs: 2...3) == Array(bobs[1...2]))
        #expect(alice.list.rows.map(\.movie.id.rawValue) == [550, 603])
        #expect(alice.list.survivingAdds(of: movieID(603)) == [carolsToo.id, reAdd.id].sorted())
    }

    @Test mutating func replayingTheLogOneOperationAtATimeRebuildsTheSameReplica() throws {
        let add = makeAdd(Peers.bob, 1, lamport: 1, movie: 603)
        let ops = [
            add, makeRemove(Peers.bob, 2, lamport: 2, movie: 603, cancelling: [add]),
            makeAdd(Peers.bob, 3, lamport: 3, movie: 550),
        ]
        _ = alice.commit(try alice.admit(ops))

        var replayed = Replica(id: Peers.alice, name: "alice")
        let accepted = ops.map { replayed.replay($0) }
        let again = replayed.replay(ops[1])
        let gap = replayed.replay(makeAdd(Peers.bob, 9, lamport: 9, movie: 1))
        #expect(accepted == [true, true, true])
        #expect(!again, "already held")
        #expect(!gap, "a gap")
        #expect(replayed.list == alice.list)
        #expect(replayed.vector == alice.vector)
        #expect(replayed.stagedVector == alice.vector)
        #expect(replayed.operations(from: Peers.bob, seqs: 1...3) == ops)
    }

    @Test mutating func operationsOfOneOriginShareOneOriginString() throws {
        // Each operation gets its own copy of the origin's text, as decoding a live push would.
        let ops = (1...3).map { seq in
            var op = makeAdd(Peers.bob, UInt64(seq), lamport: UInt64(seq), movie: seq, by: "a name longer than fifteen")
            op.id.origin = PeerID(String(Array(Peers.bob.rawValue)))!
            op.by = String(Array(op.by))
            return op
        }
        for op in ops { _ = alice.commit(try alice.admit([op])) }

        let held = alice.operations(from: Peers.bob, seqs: 1...3)
        #expect(held == ops)
        let origins = held.map { $0.id.origin.rawValue.utf8.withContiguousStorageIfAvailable(\.baseAddress) }
        #expect(origins[0] != nil && origins.allSatisfy { $0 == origins[0] })
        let names = held.map { $0.by.utf8.withContiguousStorageIfAvailable(\.baseAddress) }
        #expect(names[0] != nil && names.allSatisfy { $0 == names[0] })
    }
}
