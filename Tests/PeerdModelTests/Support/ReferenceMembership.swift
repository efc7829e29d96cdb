import PeerdModel

/// proto/PEER.md "Membership" worked out the slow, obvious way from every operation a group made,
/// whether a peer holds it or not:
/// - a removal applies when its author's chain counts at it;
/// - a key's chain counts up to the least `seen` of the removals of it that apply, and then on
///   through each following operation of it that is an exempt removal: one of a member M, where
///   every applying removal that cuts the key before it is M's, made beyond the `seen` of M;
/// - which removals apply is the choice that agrees with itself (applying exactly the removals
///   whose authors count at them); when no choice or more than one does, all apply.
/// Every subset of removals is tried. Where the fold's search from "all apply" settles, what it
/// settles on is this one choice (its rounds alternate around every choice that agrees with
/// itself). A peer only ever rests on a choice that agrees with itself, so where there are none or
/// several, peers disagree or never rest: known issues, shown in ``MembershipTests``.
struct ReferenceMembership {
    let operations: [OperationID: Operation]
    let removals: [Operation]
    /// Every choice of applying removals that agrees with itself.
    let stableChoices: [Set<OperationID>]

    init(_ all: [Operation]) {
        operations = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })
        let removals = all.filter { $0.member?.action == .remove }
        precondition(removals.count <= 12, "the reference tries every subset of removals")
        self.removals = removals
        var stable: [Set<OperationID>] = []
        for bits in 0..<(1 << removals.count) {
            let choice = Set(removals.indices.filter { bits & (1 << $0) != 0 }.map { removals[$0].id })
            if Self.agrees(choice, removals: removals, operations: operations) { stable.append(choice) }
        }
        stableChoices = stable
    }

    /// Whether exactly one choice of applying removals agrees with itself.
    var hasOneChoice: Bool { stableChoices.count == 1 }

    /// The ids of the removals that apply.
    var applying: Set<OperationID> {
        stableChoices.count == 1 ? stableChoices[0] : Set(removals.map(\.id))
    }

    /// The last seq of `key` that counts; nil when no applying removal names it.
    func cutoff(of key: PeerID) -> UInt64? { Self.cutoff(of: key, applying: applying, operations: operations) }

    var cutoffs: [PeerID: UInt64] {
        var cutoffs: [PeerID: UInt64] = [:]
        for removal in removals {
            let key = removal.member!.peer!
            cutoffs[key] = cutoff(of: key)
        }
        return cutoffs
    }

    func counts(_ id: OperationID) -> Bool {
        guard let cutoff = cutoff(of: id.origin) else { return true }
        return id.seq <= cutoff
    }

    /// The operations that count, in no particular order.
    var counting: [Operation] { operations.values.filter { counts($0.id) } }

    var admitted: Set<PeerID> {
        Set(counting.filter { $0.member?.action == .admit }.map { $0.member!.peer! })
    }

    func secretAdmits(_ fingerprint: String) -> Bool {
        let applied = removals.filter { applying.contains($0.id) }
        guard let lastRemoval = applied.map(\.orderKey).max() else { return true }
        let records = counting.filter { $0.member?.action == .secret }
        guard let newest = records.max(by: { $0.orderKey < $1.orderKey }) else { return false }
        if newest.orderKey < lastRemoval { return false }
        if newest.member!.secret != fingerprint { return false }
        for record in records where record.member!.secret == fingerprint && record.orderKey < lastRemoval {
            return false
        }
        return true
    }

    private static func agrees(
        _ choice: Set<OperationID>,
        removals: [Operation],
        operations: [OperationID: Operation]
    ) -> Bool {
        for removal in removals {
            let authorCounts =
                cutoff(of: removal.id.origin, applying: choice, operations: operations)
                .map { removal.id.seq <= $0 } ?? true
            if authorCounts != choice.contains(removal.id) { return false }
        }
        return true
    }

    private static func cutoff(
        of key: PeerID,
        applying: Set<OperationID>,
        operations: [OperationID: Operation]
    ) -> UInt64? {
        let cutting = operations.values.filter {
            applying.contains($0.id) && $0.member?.action == .remove && $0.member?.peer == key
        }
        guard var end = cutting.map({ $0.member!.seen! }).min() else { return nil }
        while let next = operations[OperationID(origin: key, seq: end + 1)], isExempt(next, cutting: cutting) {
            end += 1
        }
        return end
    }

    private static func isExempt(_ op: Operation, cutting: [Operation]) -> Bool {
        guard let step = op.member, step.action == .remove else { return false }
        let before = cutting.filter { $0.member!.seen! < op.id.seq }
        if before.isEmpty { return false }
        for removal in before {
            if removal.id.origin != step.peer { return false }
            if removal.id.seq <= step.seen! { return false }
        }
        return true
    }
}
