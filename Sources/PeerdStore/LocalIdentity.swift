import PeerdModel

/// Who this replica is, kept in `<state-dir>/identity.json`:
/// `{"created":1763700000000,"peer":"3f9c…"}`.
///
/// Made once, when a state directory is first used; a reset state directory gets a fresh peer id,
/// so `(origin, seq)` pairs are never reused.
public struct LocalIdentity: Hashable, Sendable, Codable {
    /// This replica's id, the origin of every operation it makes.
    public var peer: PeerID
    /// When the identity was made, milliseconds since 1970.
    public var created: Int64

    public init(peer: PeerID, created: Int64) {
        self.peer = peer
        self.created = created
    }
}
