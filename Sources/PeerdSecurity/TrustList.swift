package import PeerdModel

/// Whom this daemon trusts, and whom it has revoked: `<state-dir>/trust.json`
/// (proto/SECURITY.md, "Trust"). A plain value; `TrustService` in the daemon persists it.
package struct TrustList: Hashable, Sendable, Codable {
    package enum Via: String, Hashable, Sendable, Codable {
        case invite
        case groupSecret = "group-secret"
        case introduced
        case pinned
    }

    package struct Member: Hashable, Sendable, Codable {
        package var peer: PeerID
        package var name: String?
        /// Milliseconds since 1970.
        package var since: Int64
        package var via: Via
        /// For `introduced`: who introduced it.
        package var by: PeerID?

        package init(peer: PeerID, name: String? = nil, since: Int64, via: Via, by: PeerID? = nil) {
            self.peer = peer
            self.name = name
            self.since = since
            self.via = via
            self.by = by
        }
    }

    /// Sorted by peer id, so the file is stable.
    package private(set) var members: [Member] = []
    package private(set) var revoked: [PeerID] = []

    /// Introductions accepted from one `members` message at most.
    package static let maxIntroductions = 1_000

    package init() {}

    package func member(_ peer: PeerID) -> Member? { members.first { $0.peer == peer } }
    package func isMember(_ peer: PeerID) -> Bool { member(peer) != nil }
    package func isRevoked(_ peer: PeerID) -> Bool { revoked.contains(peer) }

    /// Trusts `peer` from now on (a revoked one only when `via` is `.pinned`: the user said so).
    /// Returns true if anything changed.
    @discardableResult
    package mutating func admit(_ peer: PeerID, name: String?, via: Via, by: PeerID? = nil, now: Int64) -> Bool {
        if isRevoked(peer) {
            guard via == .pinned else { return false }
            revoked.removeAll { $0 == peer }
        }
        if let index = members.firstIndex(where: { $0.peer == peer }) {
            guard let name, members[index].name != name else { return false }
            members[index].name = name
            return true
        }
        members.append(Member(peer: peer, name: name, since: now, via: via, by: by))
        members.sort { $0.peer < $1.peer }
        return true
    }

    /// A trusted peer listed these members: trust the ones not revoked here. Returns those added.
    package mutating func introduce(
        _ list: [(peer: PeerID, name: String?)],
        by introducer: PeerID,
        local: PeerID,
        now: Int64
    )
        -> [PeerID]
    {
        var added: [PeerID] = []
        for (peer, name) in list.prefix(Self.maxIntroductions) where peer != local {
            if let index = members.firstIndex(where: { $0.peer == peer }) {
                // A name learned later fills a gap; it never renames a member we know.
                if members[index].name == nil, let name { members[index].name = name }
                continue
            }
            if admit(peer, name: name, via: .introduced, by: introducer, now: now) { added.append(peer) }
        }
        return added
    }

    /// Revokes `peer`: no longer trusted, and no introduction brings it back. True if it changed.
    @discardableResult
    package mutating func forget(_ peer: PeerID) -> Bool {
        let wasMember = isMember(peer)
        members.removeAll { $0.peer == peer }
        guard !isRevoked(peer) else { return wasMember }
        revoked.append(peer)
        revoked.sort()
        return true
    }
}
