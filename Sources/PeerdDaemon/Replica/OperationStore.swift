import Logging
import NIOPosix
package import PeerdCodec
import PeerdLoops
package import PeerdModel
import PeerdStore
import PeerdWire
import SystemPackage

/// Where ``ReplicaService`` makes operations durable: the narrow seam between the replica and the
/// disk. The daemon's is the operation log, written on a thread pool; a test's can be an array.
package protocol OperationStore: Sendable {
    /// Writes `operations` in order and syncs them; returns once they are durable, with where each
    /// one is for reading it back (the replica's ``OperationArchive``: the log's record offsets),
    /// or nil from a store that can't be read back. Throws, and keeps none of them, when it can't
    /// write them (a `StoreError` says why).
    func append(_ operations: [EncodedOperation]) async throws -> [UInt64]?

    /// Keeps `parts`, of the replica this store holds the operations of, as its snapshot, so that
    /// the next start reads it and the log's tail; logs why not when it can't. A store that can't
    /// be read back keeps none.
    func keep(_ parts: ReplicaParts) async
}

extension OperationStore {
    package func keep(_ parts: ReplicaParts) async {}
}

/// The operation log, written and fsynced on a thread of its own so the event loops never block.
struct PooledOperationLog: OperationStore {
    let log: OperationLog
    let threadPool: NIOThreadPool
    /// Where the replica's snapshot is kept (``ReplicaSnapshot``).
    let snapshotPath: FilePath
    let logger: Logger

    func append(_ operations: [EncodedOperation]) async throws -> [UInt64]? {
        let log = self.log
        return try await threadPool.runIfActive { try log.append(encoded: operations) }
    }

    func keep(_ parts: ReplicaParts) async {
        let (logPath, path) = (log.path, snapshotPath)
        do {
            // On the daemon's other disk thread: a commit never waits behind a snapshot.
            try await BlockingPool.run {
                try ReplicaSnapshot.write(parts, logPath: logPath, version: PeerdVersion.current, to: path)
            }
        } catch {
            // The log still holds everything: the next start replays more of it.
            logger.warning(
                "could not keep the replica's snapshot",
                metadata: ["path": "\(path)", "reason": "\(error)"]
            )
        }
    }
}
