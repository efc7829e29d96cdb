/// One pick as the log holds it: its opening and every step that names it (proto/PEER.md,
/// "Picks"). What the steps add up to, a ``PickTally``, is worked out from the whole set, so it is
/// the same on every peer that holds the same operations, whatever order they came in.
package struct PickState: Sendable {
    package let opening: Operation
    /// Votes, rankings and closes, by id.
    package private(set) var steps: [OperationID: Operation] = [:]

    init(opening: Operation) {
        self.opening = opening
    }

    package var id: OperationID { opening.id }
    package var opener: PeerID { opening.id.origin }
    package var openedKey: OrderKey { opening.orderKey }
    private var pick: Pick { opening.pick! }
    package var mode: Pick.Mode { pick.mode ?? .majority }
    package var deck: [Movie] { pick.deck ?? [] }
    /// The members asked to vote.
    package var members: [PeerID] { pick.voters ?? [] }
    package var source: String { pick.source ?? "list" }

    /// Adds a step; whether it was new.
    mutating func apply(_ step: Operation) -> Bool {
        steps.updateValue(step, forKey: step.id) == nil
    }

    /// The earliest close, by the list's order.
    package var closedAt: OrderKey? {
        steps.values.lazy.filter { $0.pick?.action == .close }.map(\.orderKey).min()
    }

    package var isOpen: Bool { closedAt == nil }

    package var tally: PickTally { PickTally(self) }
}

/// Who voted: a member, by its id, or a guest of the opener's page.
package enum PickVoter: Hashable, Sendable, Comparable, CustomStringConvertible {
    case member(PeerID)
    case guest(id: String, name: String)

    package static func < (lhs: PickVoter, rhs: PickVoter) -> Bool {
        switch (lhs, rhs) {
        case (.member(let a), .member(let b)): a < b
        case (.member, .guest): true
        case (.guest, .member): false
        case (.guest(let a, _), .guest(let b, _)): a < b
        }
    }

    package var description: String {
        switch self {
        case .member(let peer): peer.short
        case .guest(_, let name): name
        }
    }
}
