package import Logging
package import NIOPosix
package import PeerdModel
package import PeerdSecurity
package import PeerdStore
import ServiceLifecycle

/// Owns the replica and its durable log. Every change to the list, local or from a peer, passes
/// through one commit pipeline here: staged, written and fsynced in one batch with whatever else is
/// waiting (group commit), and only then applied, published to sessions and acknowledged.
///
/// Local operations are signed with this peer's identity key as they are staged; operations from
/// peers must prove their origin (`OperationVerifier`) before they are staged. Operations the
/// replica replayed from the log at start are not checked again: the log is this peer's own disk,
/// and only checked or self-made operations were ever written to it.
package actor ReplicaService: Service {
    package enum Failure: Error, Sendable {
        case refused(Replica.LocalRefusal)
        case rejected(Replica.Rejection)
        case storage(StoreError)
        case shuttingDown
    }

    enum Work {
        case local(Replica.LocalRequest, at: Int64, CheckedContinuation<Operation, any Error>)
        case remote([Operation], completion: @Sendable (Result<Int, Failure>) -> Void)
    }

    private var replica: Replica
    private let identity: PeerIdentity
    /// Origins' keys and chain ends, for checking operations from peers and sealing our own.
    private var verifier = OperationVerifier()
    private let log: OperationLog
    private let threadPool: NIOThreadPool
    private let logger: Logger
    private var pending: [Work] = []
    private var accepting = true
    private let wakeups = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    private var nextSubscriberID = 0
    private var vectorSubscribers: [Int: AsyncStream<VersionVector>.Continuation] = [:]
    private var changeSubscribers: [Int: AsyncStream<[WatchListChange]>.Continuation] = [:]

    package init(replica: Replica, identity: PeerIdentity, log: OperationLog, threadPool: NIOThreadPool, logger: Logger)
    {
        precondition(identity.peer == replica.id, "the replica's id is its identity key's fingerprint")
        self.replica = replica
        self.identity = identity
        self.log = log
        self.threadPool = threadPool
        self.logger = logger
    }

    package func run() async throws {
        for await _ in wakeups.stream.cancelOnGracefulShutdown() {
            await flush()
        }
        // Shutting down: whatever is already queued is still made durable before the log closes.
        accepting = false
        await flush()
        for continuation in vectorSubscribers.values { continuation.finish() }
        for continuation in changeSubscribers.values { continuation.finish() }
        logger.info("replica stopped", metadata: ["operations": "\(replica.operationCount)"])
    }

    // MARK: Reading

    package var id: PeerID { replica.id }
    package var name: String { replica.name }
    package var vector: VersionVector { replica.vector }
    package var movieCount: Int { replica.list.count }
    package var operationCount: Int { replica.operationCount }

    package func page(after cursor: OrderKey?, limit: Int) -> [WatchListRow] {
        replica.list.page(after: cursor, limit: limit)
    }

    package func operations(_ ranges: [(origin: PeerID, seqs: ClosedRange<UInt64>)]) -> [Operation] {
        ranges.flatMap { replica.operations(from: $0.origin, seqs: $0.seqs) }
    }

    package func row(for movie: MovieID) -> WatchListRow? { replica.list.row(for: movie) }

    /// Every other origin we hold operations from, with the name on its latest one.
    package func origins() -> [(peer: PeerID, name: String)] {
        replica.vector.entries.keys.sorted().compactMap { origin in
            guard origin != replica.id else { return nil }
            let last = replica.vector[origin]
            return replica.operations(from: origin, seqs: last...last).first.map { (origin, $0.by) }
        }
    }

    // MARK: Writing

    /// Makes, persists and applies a local operation; returns once it is durable.
    package func submit(_ request: Replica.LocalRequest, at now: Int64) async throws -> Operation {
        guard accepting else { throw Failure.shuttingDown }
        return try await withCheckedThrowingContinuation { continuation in
            pending.append(.local(request, at: now, continuation))
            wakeups.continuation.yield()
        }
    }

    /// Queues operations from a peer, in arrival order; `completion` gets the number that were new
    /// once they are durable and applied, or why they were refused.
    package func enqueue(_ operations: [Operation], completion: @escaping @Sendable (Result<Int, Failure>) -> Void) {
        guard accepting else { return completion(.failure(.shuttingDown)) }
        pending.append(.remote(operations, completion: completion))
        wakeups.continuation.yield()
    }

    // MARK: Subscriptions

    /// The replica's vector after each commit; only the newest is kept for a slow reader.
    package func vectorUpdates() -> (id: Int, updates: AsyncStream<VersionVector>) {
        let (stream, continuation) = AsyncStream.makeStream(
            of: VersionVector.self,
            bufferingPolicy: .bufferingNewest(1)
        )
        nextSubscriberID += 1
        vectorSubscribers[nextSubscriberID] = continuation
        continuation.yield(replica.vector)
        return (nextSubscriberID, stream)
    }

    /// Every list change, in order.
    package func changes() -> (id: Int, changes: AsyncStream<[WatchListChange]>) {
        let (stream, continuation) = AsyncStream.makeStream(of: [WatchListChange].self)
        nextSubscriberID += 1
        changeSubscribers[nextSubscriberID] = continuation
        return (nextSubscriberID, stream)
    }

    package func unsubscribe(_ id: Int) {
        vectorSubscribers.removeValue(forKey: id)?.finish()
        changeSubscribers.removeValue(forKey: id)?.finish()
    }

    // MARK: The commit pipeline

    private enum Waiter {
        case local(Operation, CheckedContinuation<Operation, any Error>)
        case remote(count: Int, completion: @Sendable (Result<Int, Failure>) -> Void)
    }

    private func flush() async {
        while !pending.isEmpty {
            let batch = pending
            pending.removeAll()
            var operations: [Operation] = []
            var waiters: [Waiter] = []
            for work in batch {
                switch work {
                case .local(let request, let at, let continuation):
                    do {
                        let op = try stageLocal(request, at: at)
                        operations.append(op)
                        waiters.append(.local(op, continuation))
                    } catch {
                        continuation.resume(throwing: Failure.refused(error))
                    }
                case .remote(let incoming, let completion):
                    do {
                        let fresh = try admitVerified(incoming)
                        replica.stage(admitted: fresh)
                        operations += fresh
                        waiters.append(.remote(count: fresh.count, completion: completion))
                    } catch {
                        completion(.failure(.rejected(error)))
                    }
                }
            }
            if !operations.isEmpty {
                do {
                    let (log, batch) = (self.log, operations)
                    try await threadPool.runIfActive { try log.append(batch) }
                } catch {
                    replica.discardStaged()
                    verifier.forgetTips()
                    let failure = (error as? StoreError).map(Failure.storage) ?? .shuttingDown
                    logger.error(
                        "could not save operations",
                        metadata: ["count": "\(operations.count)", "error": "\(error)"]
                    )
                    for waiter in waiters {
                        switch waiter {
                        case .local(_, let continuation): continuation.resume(throwing: failure)
                        case .remote(_, let completion): completion(.failure(failure))
                        }
                    }
                    continue
                }
                let changes = replica.commit(operations, reportingChanges: !changeSubscribers.isEmpty)
                publish(changes)
            }
            for waiter in waiters {
                switch waiter {
                case .local(let op, let continuation): continuation.resume(returning: op)
                case .remote(let count, let completion): completion(.success(count))
                }
            }
        }
    }

    /// Stages the operation for a local request, signed by this peer and chained to its previous one.
    private func stageLocal(_ request: Replica.LocalRequest, at now: Int64) throws(Replica.LocalRefusal) -> Operation {
        let seq = replica.stagedVector[replica.id] + 1
        let prev = seq == 1 ? nil : verifier.digest(of: OperationID(origin: replica.id, seq: seq - 1), stored: stored)
        let identity = self.identity
        let op = try replica.stage(request, at: now) { OperationSeal.seal($0, prev: prev, by: identity) }
        verifier.record(op)
        return op
    }

    /// The new operations among `incoming`, once their origins' signatures vouch for them.
    private func admitVerified(_ incoming: [Operation]) throws(Replica.Rejection) -> [Operation] {
        let fresh = try replica.admit(incoming)
        do {
            try verifier.verify(fresh, stored: stored)
        } catch {
            throw .invalid(error.operation, reason: error.explanation)
        }
        return fresh
    }

    /// A committed operation.
    private func stored(_ id: OperationID) -> Operation? {
        replica.operations(from: id.origin, seqs: id.seq...id.seq).first
    }

    private func publish(_ changes: [WatchListChange]) {
        for continuation in vectorSubscribers.values { continuation.yield(replica.vector) }
        guard !changes.isEmpty else { return }
        for continuation in changeSubscribers.values { continuation.yield(changes) }
    }
}
