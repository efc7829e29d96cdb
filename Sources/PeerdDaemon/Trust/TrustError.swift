import PeerdModel

/// Why a trust request (`invite`, `trust`) was refused. `peerctl` shows the description.
enum TrustError: Error, Hashable, Sendable, CustomStringConvertible {
    case inviteLifetime(Int)
    /// The request names this daemon itself.
    case itself
    case notAPeerID(String)
    /// `trust` of a key the group removed: it never comes back.
    case removedFromGroup(PeerID, by: String?, at: Int64)

    var description: String {
        switch self {
        case .inviteLifetime: "an invite lasts 1 to \(TrustService.maxInviteLifetime) seconds"
        case .itself: "that is this peer itself"
        case .notAPeerID(let query): "'\(query)' is not a peer id (32 hex digits; see 'peerctl id')"
        case .removedFromGroup(let peer, let by, let at):
            "\(peer.short) was \(Membership.removedWords(by: by ?? "a member", at: at)), and a removed key never "
                + "comes back: that machine joins again with a new key (a fresh state directory, then peerctl join)"
        }
    }
}

/// How this daemon stands with a peer it knows of (proto/SECURITY.md, "Trust"); a peer it has never
/// listed is untrusted.
enum PeerTrust: Hashable, Sendable {
    case member
    case revoked
}
