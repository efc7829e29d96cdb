import Logging
import NIOPosix
import PeerdModel
import PeerdSecurity

/// The replica's snapshot (``ReplicaSnapshot``): kept after a start that read much of the log,
/// every so many operations, and when the daemon stops, so a start reads it and a short tail.
extension ReplicaService {
    /// At least this many new operations make a snapshot due while running (and a tenth of all
    /// held, so a long history is not written out again for every thousand).
    static let snapshotEvery = 1_000

    /// The service of a replica opened at start, kept in its log (and its snapshot beside it).
    init(_ opened: OpenedReplica, identity: PeerIdentity, threadPool: NIOThreadPool, logger: Logger) {
        self.init(
            replica: opened.replica,
            identity: identity,
            store: PooledOperationLog(
                log: opened.log,
                threadPool: threadPool,
                snapshotPath: opened.snapshotPath,
                logger: logger
            ),
            replayed: opened.replayed,
            logger: logger
        )
    }

    /// Keeps a snapshot of the replica when enough is new since the last (when `stopping`,
    /// anything): called only between flushes, when the log holds exactly what the replica does.
    func keepSnapshotIfDue(stopping: Bool = false) async {
        let new = abs(replica.operationCount - snapshotAt)
        let due = stopping ? new > 0 : new >= max(Self.snapshotEvery, replica.operationCount / 10)
        guard due, let parts = replica.parts else { return }
        snapshotAt = replica.operationCount
        await store.keep(parts)
    }
}
