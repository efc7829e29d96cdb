/// A pick and the list it was opened on. A pick's id is its opening operation's, and each list
/// keeps its own chains (proto/PEER.md, "Lists"), so two lists can hold a pick with the same id:
/// only the pair names one pick across the lists a peer holds.
package struct PickOnList: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The pick's list; nil for the group's.
    package var list: ListID?
    package var id: OperationID

    package init(_ id: OperationID, on list: ListID? = nil) {
        self.id = id
        self.list = list
    }

    package var description: String { list.map { "\(id) on \($0.short)" } ?? "\(id)" }

    package static func < (lhs: PickOnList, rhs: PickOnList) -> Bool {
        (lhs.list?.rawValue ?? "", lhs.id) < (rhs.list?.rawValue ?? "", rhs.id)
    }
}
