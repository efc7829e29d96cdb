/// Who is in the group, folded from its `member` operations (proto/PEER.md, "Membership"): the
/// same operations give the same membership on every peer, in any order they arrived.
///
/// Pure. The replica records every member operation it holds; the fold is worked out again on
/// each one, since a group has a handful.
package struct Membership: Sendable {
    /// A member operation held.
    package struct Record: Hashable, Sendable {
        package var id: OperationID
        package var order: OrderKey
        package var at: Int64
        package var by: String
        package var step: MemberStep
    }

    private var records: [Record] = []
    private var index: [OperationID: Int] = [:]
    /// Per removed key: the last seq of its that counts (``cutoff(of:)``).
    package private(set) var cutoffs: [PeerID: UInt64] = [:]
    /// The removals that apply, each once.
    private var applied: [Record] = []

    package init() {}

    package var isEmpty: Bool { records.isEmpty }

    /// Holds `op`, a member operation, and works the fold out again.
    package mutating func record(_ op: Operation) {
        guard let step = op.member, index[op.id] == nil else { return }
        index[op.id] = records.count
        records.append(Record(id: op.id, order: op.orderKey, at: op.at, by: op.by, step: step))
        fold()
    }

    /// Every member operation recorded, as much of it as the fold reads (a snapshot's part,
    /// ``ReplicaParts``: recording them again gives this membership).
    var recordedOperations: [Operation] {
        records.map { record in
            Operation(
                id: record.id,
                lamport: record.order.lamport,
                at: record.at,
                by: record.by,
                kind: .member,
                movie: Operation.groupMovie,
                payload: .member(record.step)
            )
        }
    }

    /// The last seq of `origin`'s chain that counts: nil while no removal names it. Every operation
    /// it signed beyond is refused, however it arrives (``Replica/admit(_:)``).
    package func cutoff(of origin: PeerID) -> UInt64? { cutoffs[origin] }

    /// Whether operation `(origin, seq)` counts: false beyond its origin's cutoff.
    package func counts(_ id: OperationID) -> Bool { id.seq <= (cutoffs[id.origin] ?? .max) }

    /// Whether `op`, the next operation of an origin already cut off, counts all the same: a
    /// removal of the member whose removal of it its origin had not seen (mutual removals both apply).
    package func extends(_ op: Operation) -> Bool {
        guard let cutoff = cutoffs[op.id.origin], op.id.seq == cutoff + 1, let step = op.member else { return false }
        return exempt(Record(id: op.id, order: op.orderKey, at: op.at, by: op.by, step: step), from: applied)
    }

    /// The removal of `peer` that applies (the one that saw least of its chain), or nil.
    package func removal(of peer: PeerID) -> Record? {
        applied.filter { $0.step.peer == peer }.min { ($0.step.seen ?? 0, $0.order) < ($1.step.seen ?? 0, $1.order) }
    }

    /// Every removal that applies, in the group's order.
    package var removals: [Record] { applied.sorted { $0.order < $1.order } }

    /// The first admission of `peer` that counts, or nil (a founding member, or one from before
    /// admissions were recorded).
    package func admission(of peer: PeerID) -> Record? {
        records.filter { $0.step.action == .admit && $0.step.peer == peer && counts($0.id) }.min { $0.order < $1.order }
    }

    /// Every key an admission that counts names.
    package var admitted: Set<PeerID> {
        Set(records.compactMap { $0.step.action == .admit && counts($0.id) ? $0.step.peer : nil })
    }

    /// The machine `peer` lives on when it is a profile (admitted `via: profile`): its admitter.
    package func home(of peer: PeerID) -> PeerID? {
        guard let admission = admission(of: peer), admission.step.via == .profile else { return nil }
        return admission.id.origin
    }

    /// Every profile and the machine it lives on.
    package var profiles: [PeerID: PeerID] {
        var homes: [PeerID: PeerID] = [:]
        for peer in admitted { if let home = home(of: peer) { homes[peer] = home } }
        return homes
    }

    /// Whether the group secret with this fingerprint admits new keys: always while nobody has been
    /// removed; after a removal, only a secret first recorded after the last removal, and newest.
    package func secretAdmits(_ fingerprint: String) -> Bool {
        guard let lastRemoval = applied.map(\.order).max() else { return true }
        let secrets = records.filter { $0.step.action == .secret && counts($0.id) }
        guard let newest = secrets.max(by: { $0.order < $1.order }), newest.order > lastRemoval,
            newest.step.secret == fingerprint
        else { return false }
        return !secrets.contains { $0.step.secret == fingerprint && $0.order < lastRemoval }
    }

    /// Whether a secret with this fingerprint was ever recorded by an operation that counts.
    package func recorded(secret fingerprint: String) -> Bool {
        records.contains { $0.step.action == .secret && $0.step.secret == fingerprint && counts($0.id) }
    }

    // MARK: The fold

    /// Which removals apply and where each removed key's chain ends. A removal applies when its
    /// author's chain still counts at it; that depends on the other removals, so the answer is
    /// sought as a fixed point: from "all apply", drop those cut off, until nothing changes. A ring
    /// of three or more members removing one another at once never settles: then all apply.
    private mutating func fold() {
        let removals = records.filter { $0.step.action == .remove }
        var valid = removals
        var settled = false
        for _ in 0...removals.count {
            let cut = Self.cutoffs(valid, records: self)
            let next = removals.filter { $0.id.seq <= (cut[$0.id.origin] ?? .max) }
            if next == valid {
                settled = true
                break
            }
            valid = next
        }
        applied = settled ? valid : removals
        cutoffs = Self.cutoffs(applied, records: self)
    }

    /// Where each key's chain ends under the removals `valid`: at the least `seen` of them, then on
    /// through the removals it made that are exempt (``exempt(_:from:)``), one after the other.
    private static func cutoffs(_ valid: [Record], records: Membership) -> [PeerID: UInt64] {
        var cut: [PeerID: UInt64] = [:]
        for removal in valid {
            guard let peer = removal.step.peer, let seen = removal.step.seen else { continue }
            cut[peer] = min(cut[peer] ?? .max, seen)
        }
        for (peer, seen) in cut {
            var end = seen
            while let next = records.index[OperationID(origin: peer, seq: end + 1)].map({ records.records[$0] }),
                records.exempt(next, from: valid)
            {
                end += 1
            }
            cut[peer] = end
        }
        return cut
    }

    /// Whether `record`, made by a removed key beyond what its remover had seen, is a removal of that
    /// very remover made without having seen its own removal: mutual removals both apply. Every
    /// removal that cuts the key off before it must be that member's, and unseen by it.
    private func exempt(_ record: Record, from valid: [Record]) -> Bool {
        guard record.step.action == .remove, let target = record.step.peer, let seenOfTarget = record.step.seen
        else { return false }
        let cutting = valid.filter { $0.step.peer == record.id.origin && ($0.step.seen ?? 0) < record.id.seq }
        return !cutting.isEmpty && cutting.allSatisfy { $0.id.origin == target && $0.id.seq > seenOfTarget }
    }
}
