/// Why a trust request (`invite`, `forget`, `trust`) was refused. `peerctl` shows the description.
enum TrustError: Error, Hashable, Sendable, CustomStringConvertible {
    case inviteLifetime(Int)
    /// The request names this daemon itself.
    case itself
    case notAPeerID(String)
    case noMatch(String)
    case ambiguous(String, matches: Int)

    var description: String {
        switch self {
        case .inviteLifetime: "an invite lasts 1 to \(TrustService.maxInviteLifetime) seconds"
        case .itself: "that is this peer itself"
        case .notAPeerID(let query): "'\(query)' is not a peer id (32 hex digits; see 'peerctl id')"
        case .noMatch(let query): "no trusted peer is called or starts with '\(query)'; see 'peerctl peers'"
        case .ambiguous(let query, let count): "'\(query)' matches \(count) peers; give more of the id"
        }
    }
}

/// How this daemon stands with a peer it knows of (proto/SECURITY.md, "Trust"); a peer it has never
/// listed is untrusted.
enum PeerTrust: Hashable, Sendable {
    case member
    case revoked
}
