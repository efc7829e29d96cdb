import PeerdSecurity

/// How one `peerctl join` ended (`TrustService.join`).
enum JoinOutcome: Hashable, Sendable {
    /// The inviter admitted this daemon and said hello: each now trusts the other.
    case paired
    /// The inviter refused the code, and said why; for a used or expired code, also when, and its name.
    /// This daemon pinned nobody.
    case refused(AdmissionRefusal, SpentInvite?)
    /// Nothing answered within the wait: the inviter was not found, or not reached.
    case timedOut
    /// peerd is stopping.
    case stopped

    /// The inviter's refusals that no retry can change: they end a join at once. Others (`busy`,
    /// a `key-mismatch` of the inviter's own dial) leave it waiting for a connection that works.
    static let finalRefusals: Set<AdmissionRefusal> = [.notAMember, .revoked, .inviteUsed, .inviteExpired, .removed]
}
