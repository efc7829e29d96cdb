import Logging
import NIOPosix
import PeerdModel
import PeerdSecurity

/// The replica's snapshot (``ReplicaSnapshot``): kept after a start that read much of the log,
/// every so many operations, and when the daemon stops, so a start reads it and a short tail.
extension ReplicaService {
    /// At least this many new operations make a snapshot due while running, and at least as many
    /// as the last snapshot held: a long history is not written out again for every thousand, and
    /// a catch-up of 300,000 writes about ten (a snapshot of that many takes about 0.15 s).
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

    /// Keeps a snapshot of the replica when enough is new since the last, one at a time and in the
    /// background; when `stopping`, once the one under way is done, and when anything is new.
    func keepSnapshotIfDue(stopping: Bool = false) async {
        if stopping { await keeping?.value }
        guard keeping == nil || stopping else { return }
        let new = abs(replica.operationCount - snapshotAt)
        let due = stopping ? new > 0 : new >= max(Self.snapshotEvery, snapshotAt)
        guard due, let parts = replica.parts else { return }
        snapshotAt = replica.operationCount
        let store = self.store
        guard !stopping else { return await store.keep(parts) }
        keeping = Task {
            await store.keep(parts)
            keeping = nil
        }
    }
}
