package import PeerdModel

/// Decides which of two sessions with the same peer survives, the same way on both ends.
///
/// Both sides may dial each other at once (each has the other as a static peer, or both found each
/// other over mDNS). Each keeps the connection dialed by the peer with the smaller id, so both
/// close the same one. When one side dialed both, only that dialer decides (it keeps the older);
/// the side that accepted both keeps both until the dialer closes one, so the two ends never
/// disagree and close both (proto/PEER.md, "Duplicate sessions").
///
/// A peer that dials while a session with it has been up for ``settled`` or longer has lost that
/// session at its end (TCP gave up on a stalled send, say, while our end heard nothing of it): the
/// new one wins on both sides, so a healed partition is not kept waiting on a dead connection.
package enum SessionArbiter {
    /// How long a session must have been up before a newer one from the same peer replaces it;
    /// two dialed at once, both younger, are resolved by who dialed.
    package static let settled = Duration.seconds(3)

    package struct Candidate: Hashable, Sendable {
        package var dialer: PeerID

        package init(dialer: PeerID) {
            self.dialer = dialer
        }
    }

    package enum Decision: Hashable, Sendable {
        case keepExisting, keepNew, keepBoth
    }

    /// What the side `local` does when `new` is established while `existing` already is, and has
    /// been for `existingAge`.
    package static func decide(
        new: Candidate,
        existing: Candidate,
        local: PeerID,
        existingAge: Duration = .zero
    ) -> Decision {
        if existingAge >= settled { return .keepNew }
        if new.dialer == existing.dialer { return new.dialer == local ? .keepExisting : .keepBoth }
        return new.dialer < existing.dialer ? .keepNew : .keepExisting
    }
}
