import PeerdModel
import Testing

/// A replica fed as the daemon feeds one: each batch is admitted and committed, and after a commit
/// with a removal it drops what that made void (as `ReplicaService` does after each such commit).
struct MemberReceiver {
    var replica: Replica

    init(id: PeerID) { replica = Replica(id: id, name: Peers.name(of: id)) }

    /// Delivers `operations` in this order, `sizes` of them at a time (cycled).
    mutating func receive(_ operations: [Operation], inBatchesOf sizes: [Int]) {
        var rest = operations[...]
        var turn = 0
        while !rest.isEmpty {
            let size = sizes.isEmpty ? 1 : sizes[turn % sizes.count]
            receive(Array(rest.prefix(size)))
            rest = rest.dropFirst(size)
            turn += 1
        }
    }

    /// One batch. A batch with a gap is refused whole, as a session refuses it: an operation dropped
    /// beyond a cutoff that a later removal lifted is asked for again by ``catchUp(on:)``.
    mutating func receive(_ batch: [Operation]) {
        do throws(Replica.Rejection) {
            commit(try replica.admit(batch))
        } catch {
            if case .gap = error { return }
            Issue.record("batch \(batch.map(\.id)) refused: \(error)")
        }
    }

    mutating func commit(_ operations: [Operation]) {
        _ = replica.commit(operations)
        if let removal = operations.last(where: { $0.member?.action == .remove }) {
            _ = replica.dropVoidOperations(cause: removal)
        }
    }

    /// Offers each chain from where the vector ends, as a sync session asks, until a round in which
    /// no batch changes what it holds. False when it never settles.
    @discardableResult
    mutating func catchUp(on chains: MemberChains) -> Bool {
        for _ in 0...(chains.operations.count + 2) {
            var changed = false
            for key in chains.keys {
                let chain = chains.chains[key] ?? []
                let before = replica.vector
                let have = Int(before[key])
                if have < chain.count { receive(Array(chain[have...])) }
                changed = changed || replica.vector != before
            }
            if !changed { return true }
        }
        return false
    }
}
