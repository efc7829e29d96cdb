/// Every pick of the group, folded from `pick` operations (proto/PEER.md, "Picks"). A step may
/// arrive before the opening it names (through a relay, from another origin): it is kept and
/// counted once the opening comes.
package struct Picks: Sendable, Equatable {
    private var picks: [OperationID: PickState] = [:]
    private var early: [OperationID: [OperationID: Operation]] = [:]

    package init() {}

    /// Folds in a `pick` operation; whether a pick this replica holds changed.
    @discardableResult
    package mutating func apply(_ op: Operation) -> Bool {
        guard let step = op.pick else { return false }
        guard step.action != .open else {
            guard picks[op.id] == nil else { return false }
            var state = PickState(opening: op)
            for waiting in (early.removeValue(forKey: op.id) ?? [:]).values { _ = state.apply(waiting) }
            picks[op.id] = state
            return true
        }
        guard let id = step.pick else { return false }
        guard picks[id] != nil else {
            early[id, default: [:]][op.id] = op
            return false
        }
        return picks[id]!.apply(op)
    }

    package func pick(_ id: OperationID) -> PickState? { picks[id] }

    /// The same picks with the same steps, and the same steps waiting for their openings.
    package static func == (lhs: Picks, rhs: Picks) -> Bool {
        lhs.picks.mapValues { Set($0.steps.keys) } == rhs.picks.mapValues { Set($0.steps.keys) }
            && lhs.early.mapValues { Set($0.keys) } == rhs.early.mapValues { Set($0.keys) }
    }

    /// The picks still open, newest first.
    package var open: [PickState] { all.filter(\.isOpen) }

    /// The picks still voting (open, with no result yet), oldest first. A group has one at a time:
    /// a member who asks for a pick while one is voting joins it (``Replica/pickStep``). Two opened
    /// at once, or on both sides of a partition, are both kept; the oldest is the group's.
    package var voting: [PickState] {
        picks.values.filter { $0.isOpen && $0.tally.result == .pending }.sorted { $0.openedKey < $1.openedKey }
    }

    /// The pick a step that names none is about: the oldest still voting, the same on every peer
    /// with the same operations; else the newest pick.
    package var current: PickState? { voting.first ?? all.first }

    /// Every pick, newest first.
    package var all: [PickState] { picks.values.sorted { $0.openedKey > $1.openedKey } }

    /// Everything either holds.
    /// Every pick operation held: openings, their steps, and the steps waiting for theirs.
    var operations: [Operation] {
        picks.values.flatMap { [$0.opening] + $0.steps.values } + early.values.flatMap(\.values)
    }

    package func merged(with other: Picks) -> Picks {
        var result = self
        for state in other.picks.values {
            result.apply(state.opening)
            for step in state.steps.values { result.apply(step) }
        }
        for steps in other.early.values { for step in steps.values { result.apply(step) } }
        return result
    }
}
