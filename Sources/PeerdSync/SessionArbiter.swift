package import PeerdModel

/// Decides which of two sessions with the same peer survives, the same way on both ends.
///
/// Both sides may dial each other at once (each has the other as a static peer, or both found each
/// other over mDNS). Each keeps the connection dialed by the peer with the smaller id, so both
/// close the same one. When one side dialed both, only that dialer decides (it keeps the older);
/// the side that accepted both keeps both until the dialer closes one, so the two ends never
/// disagree and close both (proto/PEER.md, "Duplicate sessions").
package enum SessionArbiter {
    package struct Candidate: Hashable, Sendable {
        package var dialer: PeerID

        package init(dialer: PeerID) {
            self.dialer = dialer
        }
    }

    package enum Decision: Hashable, Sendable {
        case keepExisting, keepNew, keepBoth
    }

    /// What the side `local` does when `new` is established while `existing` already is.
    package static func decide(new: Candidate, existing: Candidate, local: PeerID) -> Decision {
        if new.dialer == existing.dialer { return new.dialer == local ? .keepExisting : .keepBoth }
        return new.dialer < existing.dialer ? .keepNew : .keepExisting
    }
}
