import PeerdModel
import PeerdSecurity

/// What admission needs of the group's membership (proto/PEER.md, "Membership"), taken from the
/// replica after each change of members: the keys removed, with who removed each and when, the keys
/// admitted in the log, whether this daemon's group secret still admits, and whether this daemon's
/// own key was removed.
struct GroupView: Sendable {
    var removed: [PeerID: SpentInvite] = [:]
    var admitted: Set<PeerID> = []
    var secretAdmits = true
    /// "removed from the group by alice at 21:04", once this daemon's own key was removed.
    var selfRemoval: String?

    init() {}

    /// The view `membership` gives a daemon whose key is `me`, started with a group key of this
    /// fingerprint (nil without one).
    init(_ membership: Membership, me: PeerID, secret fingerprint: String?) {
        for removal in membership.removals {
            guard let peer = removal.step.peer, removed[peer] == nil else { continue }
            removed[peer] = SpentInvite(.removed, at: removal.at, inviter: removal.by)
        }
        // A profile holds no sessions (its machine signs for it): its key is no peer to admit or dial.
        let profiles = membership.profiles
        admitted = membership.admitted.subtracting(removed.keys).filter { profiles[$0] == nil }
        secretAdmits = fingerprint.map(membership.secretAdmits) ?? true
        selfRemoval = membership.removal(of: me)?.removedWords
    }
}

/// An admission this daemon made that the group's log should record: a key let in by invite, by the
/// group secret, or pinned by hand.
struct AdmissionNote: Sendable {
    var peer: PeerID
    var via: MemberStep.Via
    var name: String?
}
