import NIOPosix
package import PeerdCodec
import PeerdStore

/// Where ``ReplicaService`` makes operations durable: the narrow seam between the replica and the
/// disk. The daemon's is the operation log, written on a thread pool; a test's can be an array.
package protocol OperationStore: Sendable {
    /// Writes `operations` in order and syncs them; returns once they are durable, or throws and
    /// keeps none of them (a `StoreError` says why).
    func append(_ operations: [EncodedOperation]) async throws
}

/// The operation log, written and fsynced on a thread of its own so the event loops never block.
struct PooledOperationLog: OperationStore {
    let log: OperationLog
    let threadPool: NIOThreadPool

    func append(_ operations: [EncodedOperation]) async throws {
        let log = self.log
        try await threadPool.runIfActive { try log.append(encoded: operations) }
    }
}
