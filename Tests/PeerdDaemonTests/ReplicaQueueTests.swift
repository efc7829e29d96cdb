import Logging
import PeerdCodec
import PeerdModel
import PeerdSecurity
import PeerdStore
import PeerdTestKit
import ServiceLifecycleTestKit
import Synchronization
import Testing

@testable import PeerdDaemon

/// Operations from peers wait for the next commit in a queue of at most
/// `ReplicaService.peerQueueLimit`; a connection with more waits (and reads no more frames) until
/// the commit under way takes the queue.
@Suite("The replica's queue for peers' operations")
struct ReplicaQueueTests {
    /// A store whose appends wait until the test opens it: a commit under way for as long as it likes.
    final class HeldStore: OperationStore {
        let gate = AsyncStream.makeStream(of: Void.self)
        let started = Atomic<Int>(0)
        /// An event per append begun.
        let appends = EventFeed<Void>()

        func append(_ operations: [EncodedOperation]) async throws -> [UInt64]? {
            started.add(1, ordering: .relaxed)
            appends.send(())
            for await _ in gate.stream { break }
            return nil
        }
    }

    let identity = try! PeerIdentity.generate(name: "alice")
    let bob = try! PeerIdentity.generate(name: "bob")

    func operations(_ seqs: ClosedRange<UInt64>) -> [Operation] {
        seqs.map {
            Operation(
                id: .init(origin: bob.peer, seq: $0),
                lamport: $0,
                at: 1,
                by: "bob",
                kind: .add,
                movie: .init(id: MovieID(Int($0))!)
            )
        }
    }

    @Test func aPeerWaitsForRoomWhileTheQueueIsFullAndACommitIsUnderWay() async throws {
        let store = HeldStore()
        let service = ReplicaService.testing(identity, name: "alice", store: store)
        let appends = store.appends.subscribe()
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup { group in
                group.addTask { try await service.run() }
                // A local add's commit holds the store.
                group.addTask { _ = try await service.submit(.add(Movie(id: MovieID(1)!)), at: 1) }
                #expect(try await waitUntil(appends) { store.started.load(ordering: .relaxed) == 1 })
                // A full queue is taken at once; one more operation waits for the commit to take it.
                await service.enqueue(operations(1...UInt64(ReplicaService.peerQueueLimit))) { _ in }
                group.addTask { await service.enqueue(self.operations(9_999...9_999)) { _ in } }
                // The replica announces no peer waiting for room, nor its going on (and Replica/ is
                // being rewritten, issue 36): polls.
                #expect(try await waitUntil(Ticks()) { await service.waitingForRoom.count == 1 })
                store.gate.continuation.finish()
                #expect(try await waitUntil(Ticks()) { await service.waitingForRoom.isEmpty })
                trigger.triggerGracefulShutdown()
                try await group.waitForAll()
            }
        }
    }
}
