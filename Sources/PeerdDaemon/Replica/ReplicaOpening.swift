import Logging
import PeerdModel
import PeerdStore
import PeerdWire
import SystemPackage

/// A replica rebuilt at start from its operation log: from the snapshot beside the log and the
/// log's tail when the snapshot fits (``ReplicaSnapshot``), else from the whole log.
struct OpenedReplica {
    var replica: Replica
    let log: OperationLog
    /// Where the replica's snapshot is kept.
    let snapshotPath: FilePath
    /// How many operations were read from the log rather than the snapshot.
    let replayed: Int
    /// Operations read that break their origin's sequence (skipped, as every start skips them).
    let skipped: Int

    /// The replica `empty` grows into from the log at `logPath`: the snapshot's, when it is of the
    /// same replica (named as `empty` is now), or `empty` itself with the whole log replayed.
    init(_ empty: Replica, logPath: FilePath, logger: Logger) throws(StoreError) {
        snapshotPath = ReplicaSnapshot.path(besideLog: logPath)
        var (replica, tail) =
            Self.restored(from: snapshotPath, as: empty, logPath: logPath, logger: logger) ?? (empty, nil)
        var replayed = 0
        var skipped = 0
        (log, _, _) = try OperationLog.open(at: logPath, logger: logger, tail: tail) { operation, offset in
            replayed += 1
            if !replica.replay(operation, at: offset) { skipped += 1 }
        }
        replica.archive = log
        // Operations of a removed key that arrived before its removal stay in the log file, but
        // count nowhere: the replica drops them again at every start (proto/PEER.md, "Membership").
        _ = replica.dropVoidOperations(cause: nil)
        self.replica = replica
        self.replayed = replayed
        self.skipped = skipped
    }

    /// The replica the snapshot at `path` holds and the log length it covers, when it fits; a
    /// snapshot that does not is set aside (logged, and made again once the log is replayed).
    private static func restored(
        from path: FilePath,
        as empty: Replica,
        logPath: FilePath,
        logger: Logger
    ) -> (Replica, Int64)? {
        do throws(ReplicaSnapshot.Unused) {
            guard let contents = try ReplicaSnapshot.read(at: path, logPath: logPath, version: PeerdVersion.current)
            else { return nil }
            guard contents.parts.id == empty.id, contents.parts.listID == empty.listID else {
                throw .stale("it is of another replica")
            }
            guard var replica = Replica(restoring: contents.parts) else {
                throw .torn("its parts do not fit together")
            }
            replica.name = empty.name
            return (replica, contents.logLength)
        } catch {
            logger.warning(
                "not using the replica's snapshot; replaying the whole log",
                metadata: ["path": "\(path)", "reason": "\(error)"]
            )
            path.removeFileIfPresent()
            return nil
        }
    }
}
