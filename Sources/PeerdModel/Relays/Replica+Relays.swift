/// The group's relays and how to reach each peer, as this replica holds them (proto/PEER.md,
/// "Relays and reach").
extension Replica {
    /// The relays the group meets through: those of the newest relays operation; nil when no
    /// member ever set any (an empty set is a group that has none now).
    package var relays: GroupRelays? { list.relays }

    /// How to reach `peer`, by its newest reach operation; nil when it never told, or the group
    /// removed it.
    package func reach(of peer: PeerID) -> PeerReach? {
        guard membership.removal(of: peer) == nil else { return nil }
        return list.reachOperations[peer]?.reach
    }

    /// How to reach each peer that told, by its newest reach operation; a peer the group removed
    /// is left out.
    package var reaches: [PeerID: PeerReach] {
        var reaches: [PeerID: PeerReach] = [:]
        for (peer, op) in list.reachOperations where membership.removal(of: peer) == nil {
            reaches[peer] = op.reach
        }
        return reaches
    }

    /// Why `author` can't tell how to reach it, or nil: only a machine listens and joins relays, so
    /// a profile that lives on one has no reach of its own.
    func reachRefusal(_ request: LocalRequest, by author: Author) -> String? {
        guard case .reach = request, author.id != id else { return nil }
        return "\(author.name) is a profile: it is reached through the machine it lives on"
    }
}
