import Logging
import PeerdModel

/// Operations of a list held aside until their origin's admission to the list is held
/// (proto/PEER.md, "Lists"): a member may write as soon as it is admitted, and a third machine may
/// hear of its writes first. They are in memory only: after a restart, the next session's catch-up
/// brings them again.
extension ReplicaService {
    /// The most operations a list holds aside; beyond, the oldest are let go (a catch-up brings
    /// them again) rather than let a peer grow this daemon's memory.
    static let waitingLimit = 10_000

    func holdAside(_ operations: [Operation]) {
        guard !operations.isEmpty else { return }
        for op in operations { waiting[op.id] = op }
        if waiting.count > Self.waitingLimit {
            let excess = waiting.keys.sorted { waiting[$0]!.orderKey < waiting[$1]!.orderKey }
                .prefix(waiting.count - Self.waitingLimit)
            for id in excess { waiting[id] = nil }
            logger.warning("let go of operations held aside for an admission", metadata: ["count": "\(excess.count)"])
        }
    }

    /// A commit changed the list's members: what was held aside is tried again, in the next batch.
    func admitWaiting() {
        guard !waiting.isEmpty else { return }
        let again = waiting.values.sorted { $0.id < $1.id }
        waiting.removeAll()
        pending.append(.remote(again, completion: { _ in }))
    }
}
