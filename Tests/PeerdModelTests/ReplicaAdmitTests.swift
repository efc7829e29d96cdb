import PeerdModel
import Testing

/// Checking operations that arrive from peers, and serving them back out.
@Suite struct ReplicaAdmitTests {
    var alice = Replica(id: Peers.alice, name: "alice")
    let bobOps = (1...5).map { makeAdd(Peers.bob, UInt64($0), lamport: UInt64($0), movie: $0) }
    let carolOps = (1...3).map { makeAdd(Peers.carol, UInt64($0), lamport: UInt64($0 + 1), movie: $0 + 10) }

    @Test func admitReturnsNewOperationsInTheOrderTheyCame() throws {
        let interleaved = [bobOps[0], carolOps[0], carolOps[1], bobOps[1], carolOps[2]]
        #expect(try alice.admit(interleaved) == interleaved)
    }

    @Test mutating func admitDropsOperationsAlreadyHeldOrRepeatedInTheBatch() throws {
        _ = alice.commit(try alice.admit(Array(bobOps[0..<3])))

        #expect(try alice.admit(bobOps) == Array(bobOps[3...]))
        #expect(try alice.admit([bobOps[3], bobOps[3], bobOps[2], bobOps[4]]) == [bobOps[3], bobOps[4]])
        #expect(try alice.admit(Array(bobOps[0..<3])).isEmpty)
    }

    @Test mutating func admitDropsOurOwnOperationsEchoedBack() throws {
        let own = try alice.stage(.add(Movie(id: movieID(603))), at: epoch)
        _ = alice.commit([own])
        #expect(try alice.admit([own, bobOps[0]]) == [bobOps[0]])
    }

    @Test mutating func aSeqJumpIsAGap() throws {
        #expect(throws: Replica.Rejection.gap(bobOps[1].id, expected: 1)) {
            try alice.admit([bobOps[1]])
        }
        #expect(throws: Replica.Rejection.gap(bobOps[3].id, expected: 3)) {
            try alice.admit([bobOps[0], carolOps[0], bobOps[1], bobOps[3]])
        }
        _ = alice.commit(try alice.admit(Array(bobOps[0..<2])))
        #expect(throws: Replica.Rejection.gap(bobOps[4].id, expected: 3)) {
            try alice.admit([bobOps[4]])
        }
    }

    @Test mutating func anOperationInOurNameThatWeNeverMadeIsForged() throws {
        let forged = makeAdd(Peers.alice, 1, lamport: 1, movie: 603)
        #expect(throws: Replica.Rejection.forgedOwnOrigin(forged.id)) {
            try alice.admit([bobOps[0], forged])
        }

        // Still forged after we made seq 1: seq 2 is not ours yet.
        _ = alice.commit([try alice.stage(.add(Movie(id: movieID(550))), at: epoch)])
        let ahead = makeAdd(Peers.alice, 2, lamport: 9, movie: 603)
        #expect(throws: Replica.Rejection.forgedOwnOrigin(ahead.id)) {
            try alice.admit([ahead])
        }
    }

    @Test mutating func aStagedButUncommittedSeqInOurNameIsForgedToo() throws {
        let staged = try alice.stage(.add(Movie(id: movieID(603))), at: epoch)
        #expect(throws: Replica.Rejection.forgedOwnOrigin(staged.id)) {
            try alice.admit([staged])
        }
    }

    @Test(arguments: [
        ("seq 0", makeAdd(Peers.bob, 0, lamport: 1, movie: 603)),
        ("lamport 0", makeAdd(Peers.bob, 1, lamport: 0, movie: 603)),
        ("empty by", makeAdd(Peers.bob, 1, lamport: 1, movie: 603, by: "")),
        ("long by", makeAdd(Peers.bob, 1, lamport: 1, movie: 603, by: String(repeating: "b", count: 65))),
        ("empty title", makeAdd(Peers.bob, 1, lamport: 1, movie: 603, title: "")),
        ("long title", makeAdd(Peers.bob, 1, lamport: 1, movie: 603, title: String(repeating: "t", count: 301))),
        ("year", makeAdd(Peers.bob, 1, lamport: 1, movie: 603, year: 1869)),
        ("add that removes", addThatRemoves()),
        ("removal that names no add", removalOfNothing()),
    ])
    func aMalformedOperationIsInvalid(what: String, operation: Operation) {
        #expect(operation.invalidReason != nil, "\(what)")
        let error = #expect(throws: Replica.Rejection.self) {
            try alice.admit([bobOps[0], operation])
        }
        guard case .invalid(let id, let reason) = error else {
            Issue.record("expected .invalid for \(what), got \(String(describing: error))")
            return
        }
        #expect(id == operation.id)
        #expect(reason == operation.invalidReason)
    }

    @Test mutating func aRemovalOfNothingStoredByAnOlderPeerdStillReplaysSoItsOriginGoesOn() {
        #expect(removalOfNothing().invalidReason == Operation.emptyRemovalReason)
        var empty = removalOfNothing()
        empty.id.seq = 2
        let replayed = [bobOps[0], empty, makeAdd(Peers.bob, 3, lamport: 3, movie: 7)].map { alice.replay($0) }
        #expect(replayed == [true, true, true])
        #expect(alice.list.rows.map(\.movie.id) == [movieID(1), movieID(7)])
    }

    @Test mutating func operationsFromOriginServesTheRequestedSlice() throws {
        _ = alice.commit(try alice.admit(bobOps + carolOps))

        #expect(Array(alice.operations(from: Peers.bob, seqs: 2...4)) == Array(bobOps[1...3]))
        #expect(Array(alice.operations(from: Peers.bob, seqs: 1...5)) == bobOps)
        #expect(Array(alice.operations(from: Peers.carol, seqs: 3...3)) == [carolOps[2]])
        #expect(alice.operations(from: Peers.bob, seqs: 4...6).isEmpty)
        #expect(alice.operations(from: Peers.bob, seqs: 0...2).isEmpty)
        #expect(alice.operations(from: Peers.alice, seqs: 1...1).isEmpty)
    }
}

private func addThatRemoves() -> Operation {
    var op = makeAdd(Peers.bob, 1, lamport: 1, movie: 603)
    op.removes = [OperationID(origin: Peers.carol, seq: 1)]
    return op
}

private func removalOfNothing() -> Operation {
    var op = makeAdd(Peers.bob, 1, lamport: 2, movie: 603)
    op.kind = .remove
    return op
}
