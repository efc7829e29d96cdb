/// The rules of one of the group's other lists (proto/PEER.md, "Lists"), as this replica holds it.
extension Replica {
    /// Who is on the list: its creator and every key admitted to it, less those removed from it.
    /// Empty for the group's own list.
    package var listMembers: Set<PeerID> {
        guard listID != nil else { return [] }
        var members = membership.admitted
        if let creator { members.insert(creator) }
        return members.subtracting(membership.removals.compactMap(\.step.peer))
    }

    /// The list's name and ceiling; nil for the group's own list, or before its creation is held.
    package var listDefinition: ListDefinition? { list.definition }

    /// Why `author` can't make `request` in this list, or nil. In the group's list, only a list's
    /// definition is refused, and a profile's reach (``Replica/reachRefusal(_:by:)``); in another,
    /// the group's settings, relays and reach are, and anything by a key not on the list (other
    /// than its creation: the creator's first list operation, with the nonce).
    func listRefusal(_ request: LocalRequest, by author: Author) -> String? {
        guard listID != nil else {
            if case .defineList = request { return "a list is named in the list itself" }
            return reachRefusal(request, by: author)
        }
        switch request {
        case .settings: return "the group's region and services are set for the whole group"
        case .relays: return "the group's relays are set for the whole group"
        case .reach: return "how to reach a machine is told to the whole group"
        default: break
        }
        if case .defineList(let definition) = request, definition.nonce != nil {
            return creator == nil && stagedVector[author.id] == 0 ? nil : "the list is made already"
        }
        if let removal = membership.removal(of: author.id) {
            return "\(author.name) was removed from this list by \(removal.by)"
        }
        let staging = staged.contains { $0.id.origin == author.id && $0.listDefinition?.nonce != nil }
        guard author.id == creator || staging || membership.admitted.contains(author.id) else {
            return "\(author.name) is not on this list"
        }
        return nil
    }
}
