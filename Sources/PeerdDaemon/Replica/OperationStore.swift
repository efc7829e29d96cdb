import NIOPosix
package import PeerdCodec
import PeerdStore

/// Where ``ReplicaService`` makes operations durable: the narrow seam between the replica and the
/// disk. The daemon's is the operation log, written on a thread pool; a test's can be an array.
package protocol OperationStore: Sendable {
    /// Writes `operations` in order and syncs them; returns once they are durable, with where each
    /// one is for reading it back (the replica's ``OperationArchive``: the log's record offsets),
    /// or nil from a store that can't be read back. Throws, and keeps none of them, when it can't
    /// write them (a `StoreError` says why).
    func append(_ operations: [EncodedOperation]) async throws -> [UInt64]?
}

/// The operation log, written and fsynced on a thread of its own so the event loops never block.
struct PooledOperationLog: OperationStore {
    let log: OperationLog
    let threadPool: NIOThreadPool

    func append(_ operations: [EncodedOperation]) async throws -> [UInt64]? {
        let log = self.log
        return try await threadPool.runIfActive { try log.append(encoded: operations) }
    }
}
