import PeerdModel
import Testing

/// Staging, committing and discarding local operations.
@Suite struct ReplicaTests {
    var alice = Replica(id: Peers.alice, name: "alice")
    let matrix = Movie(id: movieID(603), title: "The Matrix", year: 1999)
    let fightClub = Movie(id: movieID(550), title: "Fight Club")

    @Test mutating func stageNumbersOperationsOneTwoThreeWithIncreasingLamportTimes() throws {
        let ops = try [matrix, fightClub, Movie(id: movieID(11))].map { try alice.stage(.add($0), at: epoch) }

        #expect(ops.map(\.id) == (1...3).map { OperationID(origin: Peers.alice, seq: $0) })
        #expect(ops.map(\.lamport) == [1, 2, 3])
        #expect(ops.allSatisfy { $0.kind == .add && $0.by == "alice" && $0.at == epoch && $0.invalidReason == nil })
    }

    @Test mutating func aDraftIsSealedBeforeItIsStagedAndWhatCommitsIsTheSealedOne() throws {
        let proof = OperationProof(sig: Array(repeating: 7, count: 64), prev: nil, key: [1, 2, 3])
        guard case .operation(var op) = try alice.draft(.add(matrix), at: epoch) else {
            Issue.record("nothing drafted")
            return
        }
        #expect(op.proof.isEmpty)
        op.proof = proof
        alice.stage(local: op)
        _ = alice.commit([op])
        #expect(alice.operations(from: Peers.alice, seqs: 1...1).first?.proof == proof)
    }

    @Test mutating func aDraftChangesNothingUntilItIsStaged() throws {
        let first = try alice.draft(.add(matrix), at: epoch)
        #expect(try alice.draft(.add(matrix), at: epoch) == first)
        #expect(alice.stagedVector[Peers.alice] == 0)
    }

    @Test mutating func stageDoesNotApplyAndCommitDoes() throws {
        let op = try alice.stage(.add(matrix), at: epoch)
        #expect(alice.list.count == 0)
        #expect(alice.vector[Peers.alice] == 0)

        let changes = alice.commit([op])

        #expect(changes.count == 1)
        #expect(alice.list.rows.map(\.movie) == [matrix])
        #expect(alice.list.rows[0].addedBy == [adder(Peers.alice)])
        #expect(alice.vector[Peers.alice] == 1)
        #expect(alice.operationCount == 1)
        #expect(alice.operations(from: Peers.alice, seqs: 1...1) == [op])
    }

    @Test mutating func commitAdvancesTheVectorAndTheLamportClock() throws {
        let bobOps = (1...3).map { makeAdd(Peers.bob, UInt64($0), lamport: UInt64($0 * 3), movie: $0) }
        _ = alice.commit(try alice.admit(bobOps))

        #expect(alice.vector == VersionVector([Peers.bob: 3]))
        #expect(alice.lamport == 9)
        let next = try alice.stage(.add(matrix), at: epoch)
        #expect(next.lamport == 10)
        #expect(next.id.seq == 1)
        _ = alice.commit([next])
        #expect(alice.vector == VersionVector([Peers.alice: 1, Peers.bob: 3]))
        #expect(alice.lamport == 10)
    }

    @Test mutating func committingAnOperationAgainChangesNothing() throws {
        let op = try alice.stage(.add(matrix), at: epoch)
        _ = alice.commit([op])
        let before = alice.list

        #expect(alice.commit([op]).isEmpty)
        #expect(alice.list == before)
        #expect(alice.vector[Peers.alice] == 1)
    }

    @Test mutating func discardStagedLetsTheSeqsBeUsedAgain() throws {
        let first = try alice.stage(.add(matrix), at: epoch)
        _ = alice.commit([first])
        let failed = try [fightClub, Movie(id: movieID(11))].map { try alice.stage(.add($0), at: epoch) }
        #expect(failed.map(\.id.seq) == [2, 3])

        alice.discardStaged()

        let retried = try alice.stage(.add(fightClub), at: epoch)
        #expect(retried.id.seq == 2)
        #expect(retried.lamport > first.lamport)
        _ = alice.commit([retried])
        #expect(alice.list.rows.map(\.movie) == [matrix, fightClub])
    }

    @Test mutating func committingPartOfABatchKeepsTheRestStaged() throws {
        let first = try alice.stage(.add(matrix), at: epoch)
        let second = try alice.stage(.add(fightClub), at: epoch)
        _ = alice.commit([first])

        let third = try alice.stage(.add(Movie(id: movieID(11))), at: epoch)
        #expect(third.id.seq == 3)
        _ = alice.commit([second, third])
        #expect(alice.vector[Peers.alice] == 3)
    }

    @Test mutating func addingAMovieThisReplicaAlreadyListedDraftsNothing() throws {
        _ = alice.commit([try alice.stage(.add(matrix), at: epoch)])
        let row = try #require(alice.list.row(for: matrix.id))

        #expect(try alice.draft(.add(Movie(id: movieID(603))), at: epoch) == .alreadyListed(row))
    }

    @Test mutating func addingAMovieOnlyAnotherPeerListedAddsThisReplicaAsAnAdder() throws {
        _ = alice.commit(try alice.admit([makeAdd(Peers.bob, 1, lamport: 1, movie: 603)]))
        _ = alice.commit([try alice.stage(.add(matrix), at: epoch)])

        #expect(alice.list.rows.map(\.addedBy) == [[adder(Peers.bob), adder(Peers.alice)]])
    }

    @Test mutating func removingAMovieThatIsNotListedIsRefused() throws {
        #expect(throws: Replica.LocalRefusal.notListed(movieID(603))) {
            try alice.stage(.remove(movieID(603)), at: epoch)
        }

        _ = alice.commit([try alice.stage(.add(matrix), at: epoch)])
        _ = alice.commit([try alice.stage(.remove(matrix.id), at: epoch)])
        #expect(throws: Replica.LocalRefusal.notListed(movieID(603))) {
            try alice.stage(.remove(movieID(603)), at: epoch)
        }
    }

    @Test mutating func anInvalidMovieIsRefused() {
        #expect(throws: Replica.LocalRefusal.self) {
            try alice.stage(.add(Movie(id: movieID(603), title: "")), at: epoch)
        }
        #expect(throws: Replica.LocalRefusal.self) {
            try alice.stage(.add(Movie(id: movieID(603), year: 1066)), at: epoch)
        }
    }

    @Test mutating func aRemovalNamesEverySurvivingAddOfTheMovie() throws {
        let bobAdds = makeAdd(Peers.bob, 1, lamport: 1, movie: 603)
        _ = alice.commit(try alice.admit([bobAdds]))
        let aliceAdds = try alice.stage(.add(matrix), at: epoch)
        _ = alice.commit([aliceAdds])

        let removal = try alice.stage(.remove(matrix.id), at: epoch)

        #expect(removal.kind == .remove)
        #expect(removal.removes == [aliceAdds.id, bobAdds.id])
        #expect(removal.movie.id == matrix.id)
        #expect(removal.invalidReason == nil)
        _ = alice.commit([removal])
        #expect(alice.list.count == 0)
    }

    @Test mutating func anAddAndItsRemovalCanBeStagedInOneBatch() throws {
        let add = try alice.stage(.add(matrix), at: epoch)
        let removal = try alice.stage(.remove(matrix.id), at: epoch)
        #expect(removal.removes == [add.id])
        #expect(throws: Replica.LocalRefusal.notListed(matrix.id)) {
            try alice.stage(.remove(matrix.id), at: epoch)
        }

        _ = alice.commit([add, removal])
        #expect(alice.list.count == 0)
        #expect(alice.vector[Peers.alice] == 2)
    }

    @Test mutating func aRemovalThenAReAddStagedInOneBatchLeaveTheMovieListed() throws {
        let add = try alice.stage(.add(matrix), at: epoch)
        _ = alice.commit([add])

        let removal = try alice.stage(.remove(matrix.id), at: epoch)
        let reAdd = try alice.stage(.add(matrix), at: epoch)
        _ = alice.commit([removal, reAdd])

        #expect(alice.list.rows.map(\.key) == [reAdd.orderKey])
    }
}
