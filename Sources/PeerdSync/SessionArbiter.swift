import PeerdModel

/// Decides which of two sessions with the same peer survives, the same way on both ends.
///
/// Both sides may dial each other at once (each has the other as a static peer, or both found each
/// other over mDNS). Each keeps the connection dialed by the peer with the smaller id, so both
/// close the same one. Two connections dialed by the same side keep the older one.
public enum SessionArbiter {
    public struct Candidate: Hashable, Sendable {
        public var dialer: PeerID

        public init(dialer: PeerID) {
            self.dialer = dialer
        }
    }

    /// True when `new` should replace `existing`.
    public static func prefers(_ new: Candidate, over existing: Candidate) -> Bool {
        new.dialer < existing.dialer
    }
}
