import Logging
import PeerdCodec
import PeerdModel
import PeerdSecurity
import PeerdStore
import PeerdWire
import ServiceLifecycle
import ServiceLifecycleTestKit
import Synchronization
import SystemPackage
import Testing

@testable import PeerdDaemon

/// The replica service in process, its store an array: drafting, sealing and staging a local
/// operation in one place, what `submit` answers, what a failed write leaves behind, and live push
/// reusing the bytes encoded at commit.
@Suite("Replica service")
struct ReplicaServiceTests {
    let identity = try! PeerIdentity.generate(name: "alice")
    let matrix = Movie(id: MovieID(603)!, title: "The Matrix", year: 1999)

    /// Runs a service over `store` while `body` uses it, then shuts it down gracefully.
    func withService(
        _ store: MemoryStore,
        _ body: @Sendable (ReplicaService) async throws -> Void
    ) async throws {
        let service = ReplicaService.testing(identity, name: "alice", store: store)
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup { group in
                group.addTask { try await service.run() }
                try await body(service)
                trigger.triggerGracefulShutdown()
                try await group.waitForAll()
            }
        }
    }

    @Test func anAddIsSealedWrittenOnceAndAnsweredWithItsRow() async throws {
        let store = MemoryStore()
        try await withService(store) { service in
            guard case .added(let op, let row) = try await service.submit(.add(matrix), at: 1) else {
                Issue.record("not added")
                return
            }
            #expect(row.movie == matrix && row.addedBy.map(\.peer) == [identity.peer])
            #expect(store.operations.map(\.json) == [OperationJSON.encode(op)])
            var verifier = OperationVerifier()
            try verifier.verify([op]) { _ in nil }
            #expect(await service.vector[identity.peer] == 1)
        }
    }

    @Test func addingAMovieAlreadyListedByUsWritesNothingAndSaysSo() async throws {
        let store = MemoryStore()
        try await withService(store) { service in
            _ = try await service.submit(.add(matrix), at: 1)
            let again = try await service.submit(.add(Movie(id: matrix.id)), at: 2)
            #expect(again == .alreadyListed(try #require(await service.snapshot.list.row(for: matrix.id))))
            #expect(store.operations.count == 1)
        }
    }

    @Test func aRefusalIsMappedOnceToTheWiresError() async throws {
        try await withService(MemoryStore()) { service in
            let error = await #expect(throws: ReplicaService.Failure.self) {
                try await service.submit(.remove(MovieID(550)!), at: 1)
            }
            #expect(error?.wireError.code == .notListed)
            #expect(error?.wireError.message == "movie 550 is not on the list")
        }
    }

    @Test func aFailedWriteKeepsNothingAndTheSeqIsUsedAgain() async throws {
        let store = MemoryStore()
        try await withService(store) { service in
            store.failing.withLock { $0 = true }
            let error = await #expect(throws: ReplicaService.Failure.self) {
                try await service.submit(.add(matrix), at: 1)
            }
            #expect(error?.wireError.code == .storageFailed)
            #expect(await service.vector[identity.peer] == 0)
            #expect(await service.movieCount == 0)
            store.failing.withLock { $0 = false }
            guard case .added(let op, _) = try await service.submit(.add(matrix), at: 2) else {
                Issue.record("not added")
                return
            }
            #expect(op.id.seq == 1)
            var verifier = OperationVerifier()
            try verifier.verify([op]) { _ in nil }
        }
    }

    @Test func operationsFromAPeerMustProveTheirOrigin() async throws {
        let store = MemoryStore()
        try await withService(store) { service in
            let bob = try PeerIdentity.generate(name: "bob")
            let unsigned = Operation(
                id: OperationID(origin: bob.peer, seq: 1),
                lamport: 1,
                at: 1,
                by: "bob",
                kind: .add,
                movie: matrix
            )
            let (results, sink) = AsyncStream.makeStream(of: Result<Set<PeerID>, ReplicaService.Failure>.self)
            await service.enqueue([unsigned]) { sink.yield($0) }
            guard case .failure(let failure) = await results.first(where: { _ in true }) else {
                Issue.record("accepted an unsigned operation")
                return
            }
            #expect(failure.wireError.code == .invalidOperation)
            #expect(store.operations.isEmpty)
        }
    }

    @Test func aLivePushSendsTheBytesEncodedAtCommit() async throws {
        let store = MemoryStore()
        try await withService(store) { service in
            for id in 1...3 { _ = try await service.submit(.add(Movie(id: MovieID(id)!)), at: 1) }
            let outgoing = await service.outgoing([(identity.peer, 2...3)])
            let sent = outgoing.compactMap { if case .encoded(let encoded) = $0 { encoded.json } else { nil } }
            #expect(sent == store.operations.suffix(2).map(\.json))
        }
    }
}
