import PeerdModel
import PropertyBased
import Testing

/// A replica restored from its parts (what a start-up snapshot holds) is the replica that replaying
/// its log gave, and goes on the same way: checked on random histories of every kind of operation
/// and on random groups that admit and remove members.
@Suite struct ReplicaPartsTests {
    /// A log in memory: each operation at an offset of its own, as the operation log reads them back.
    struct LogInMemory: OperationArchive {
        var operations: [UInt64: Operation] = [:]
        func operation(at offset: UInt64) -> Operation? { operations[offset] }
    }

    /// `operations` replayed as a start replays the log, each at its offset in `log`.
    static func replayed(_ operations: [Operation], into replica: inout Replica, log: inout LogInMemory) {
        for op in operations {
            let offset = UInt64(8 + log.operations.count * 100)
            log.operations[offset] = op
            _ = replica.replay(op, at: offset)
        }
        replica.archive = log
    }

    /// Replays the first `split` operations, restores a replica from its parts, replays the rest
    /// into both, and checks they agree before and after.
    static func checkRestoring(_ operations: [Operation], split: Int) {
        var log = LogInMemory()
        var replayed = Replica(id: Peers.observers[0], name: "observer")
        Self.replayed(Array(operations.prefix(split)), into: &replayed, log: &log)
        _ = replayed.dropVoidOperations(cause: nil)
        guard let parts = replayed.parts else {
            #expect(replayed.droppedVoid, "a replica backed by a log has parts unless it dropped void operations")
            return
        }
        guard var restored = Replica(restoring: parts) else {
            Issue.record("the parts of a replica did not restore it")
            return
        }
        restored.archive = log
        expectSame(restored, replayed)
        let tail = Array(operations.dropFirst(split))
        Self.replayed(tail, into: &replayed, log: &log)
        restored.archive = log
        for op in tail { _ = restored.replay(op, at: log.operations.first { $0.value == op }?.key) }
        _ = replayed.dropVoidOperations(cause: nil)
        _ = restored.dropVoidOperations(cause: nil)
        expectSame(restored, replayed)
    }

    static func expectSame(_ restored: Replica, _ replayed: Replica) {
        #expect(restored.vector == replayed.vector)
        #expect(restored.stagedVector == replayed.stagedVector)
        #expect(restored.lamport == replayed.lamport)
        #expect(restored.list == replayed.list)
        #expect(restored.list.rows == replayed.list.rows)
        #expect(restored.list.settings == replayed.list.settings)
        #expect(restored.relays == replayed.relays)
        #expect(restored.reaches == replayed.reaches)
        for movie in History.moviePool.map(movieID) {
            #expect(
                restored.list.marks.marks(of: movie, names: nil) == replayed.list.marks.marks(of: movie, names: nil)
            )
            #expect(restored.list.description(of: movie) == replayed.list.description(of: movie))
        }
        for peer in Peers.group + Peers.newcomers {
            #expect(restored.list.names.name(of: peer) == replayed.list.names.name(of: peer))
            let count = replayed.vector[peer]
            if count > 0 {
                #expect(
                    restored.operations(from: peer, seqs: 1...count) == replayed.operations(from: peer, seqs: 1...count)
                )
            }
        }
        #expect(restored.membership.cutoffs == replayed.membership.cutoffs)
        #expect(restored.membership.removals.map(\.id) == replayed.membership.removals.map(\.id))
        #expect(restored.membership.admitted == replayed.membership.admitted)
        #expect(restored.list.picks == replayed.list.picks)
        #expect(
            restored.history(before: nil, limit: 10_000) { _ in true }
                == replayed.history(before: nil, limit: 10_000) { _ in true }
        )
        #expect(
            restored.lastNamed(Set(History.moviePool.map(movieID)))
                == replayed.lastNamed(Set(History.moviePool.map(movieID)))
        )
    }

    @Test func aReplicaRestoredFromItsPartsIsTheOneReplayingGaveOnAnyHistory() async {
        await propertyCheck(input: Gen.history(steps: 0...60)) { history in
            let split = history.operations.count / 2
            Self.checkRestoring(history.operations, split: split)
        }
    }

    @Test func aReplicaRestoredFromItsPartsIsTheOneReplayingGaveInAGroupThatRemovesMembers() async {
        await propertyCheck(input: Gen.memberDeliveries) { deliveries in
            let operations = deliveries.chains.operations
            Self.checkRestoring(operations, split: operations.count * 2 / 3)
        }
    }

    @Test func aReplicaWithoutALogHasNoParts() throws {
        var replica = Replica(id: Peers.alice, name: "alice")
        _ = replica.commit(try replica.admit([makeAdd(Peers.bob, 1, lamport: 1, movie: 603)]))
        #expect(replica.parts == nil)
    }
}
