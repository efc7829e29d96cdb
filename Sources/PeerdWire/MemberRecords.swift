package import PeerdModel

/// One key of the group as `members` shows it (proto/CONTROL.md, "members"): who it is, who let it
/// in and how, and, once removed, who removed it and when.
package struct MemberRecord: Hashable, Sendable, Codable {
    package enum State: String, Hashable, Sendable, Codable {
        case member, removed
    }

    package var peer: PeerID
    package var name: String?
    /// This daemon's own key.
    package var here: Bool
    package var state: State
    /// Whether a session with it is established now.
    package var connected: Bool
    /// The admission that counts; all absent for a founding member, or one from before admissions
    /// were recorded.
    package var admittedBy: PeerID?
    package var admittedByName: String?
    package var via: MemberStep.Via?
    /// When it was admitted (ms since 1970), or else when its first operation held was made.
    package var since: Int64?
    package var removedBy: PeerID?
    package var removedByName: String?
    package var removedAt: Int64?
    /// How far the remover had seen its chain: its operations after that seq count nowhere.
    package var seen: UInt64?

    package init(peer: PeerID, name: String?, here: Bool, state: State, connected: Bool) {
        self.peer = peer
        self.name = name
        self.here = here
        self.state = state
        self.connected = connected
    }
}

/// The answer to `members`: every key of the group, and whether the group secret this daemon was
/// started with still admits new keys.
package struct MembersRecord: Hashable, Sendable, Codable {
    package var members: [MemberRecord]
    /// Set when this daemon has a group secret that no longer admits anyone: why, and what to do.
    package var secretClosed: String?

    package init(members: [MemberRecord], secretClosed: String? = nil) {
        self.members = members
        self.secretClosed = secretClosed
    }
}

/// The answer to `removeMember` (and `forget`): the removal made.
package struct MemberRemovedRecord: Hashable, Sendable, Codable {
    package var peer: PeerID
    package var name: String?
    /// How far this daemon had seen its chain.
    package var seen: UInt64
    /// Sessions with it closed here.
    package var closed: Int

    package init(peer: PeerID, name: String?, seen: UInt64, closed: Int) {
        self.peer = peer
        self.name = name
        self.seen = seen
        self.closed = closed
    }
}
