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
///
/// Of two young sessions, one straight to the peer and one through a relay, the direct one wins on
/// both sides (each end knows which of its sessions rides on a relay): a relayed session gives way
/// once a direct path works (proto/PEER.md, "Relays and reach").
package enum SessionArbiter {
    /// How long a session must have been up before a newer one from the same peer replaces it;
    /// two dialed at once, both younger, are resolved by who dialed.
    package static let settled = Duration.seconds(3)

    package struct Candidate: Hashable, Sendable {
        package var dialer: PeerID
        /// It rides on a relay rather than going straight to the peer.
        package var relayed: Bool

        package init(dialer: PeerID, relayed: Bool = false) {
            self.dialer = dialer
            self.relayed = relayed
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
        if new.relayed != existing.relayed { return existing.relayed ? .keepNew : .keepExisting }
        if new.dialer == existing.dialer { return new.dialer == local ? .keepExisting : .keepBoth }
        return new.dialer < existing.dialer ? .keepNew : .keepExisting
    }
}
