/// What a `member` operation carries (proto/PEER.md, "Membership"): one change of who is in the
/// group, made and signed by a member. An admission says who let a key in and how; a removal says
/// how far the remover had seen the removed key's chain (`seen`), and nothing that key signs beyond
/// it counts; a secret record names the group secret in use, so that after a removal the old one
/// admits nobody.
///
/// A class, like ``Mark``, so that an operation holds it in one pointer's room.
package final class MemberStep: Hashable, Sendable, Codable, CustomStringConvertible {
    package enum Action: String, Hashable, Sendable, Codable {
        case admit, remove, secret
    }

    /// How a key came in: the ways of proto/SECURITY.md, "Trust".
    package enum Via: String, CaseIterable, Hashable, Sendable, Codable {
        case invite
        case groupSecret = "group-secret"
        case introduced
        case pinned
        /// A profile: a member who lives on the admitter's machine, which holds its key and signs for
        /// it (proto/PEER.md, "Profiles").
        case profile
        /// A member of one of the group's other lists, admitted to it in that list (proto/PEER.md,
        /// "Lists"): already a member of the group.
        case list
    }

    package let action: Action
    /// The key admitted or removed, by its peer id (the fingerprint of its key).
    package let peer: PeerID?
    /// Admissions: how.
    package let via: Via?
    /// Admissions: the admitted machine's name when the admitter knew it, 1–64 characters.
    package let name: String?
    /// Removals: the highest seq of `peer`'s chain the remover held with no gap below it; 0 for none.
    package let seen: UInt64?
    /// Secret records: the group key's fingerprint, 32 hex digits (proto/SECURITY.md, "Group secret").
    package let secret: String?

    package init(
        action: Action,
        peer: PeerID? = nil,
        via: Via? = nil,
        name: String? = nil,
        seen: UInt64? = nil,
        secret: String? = nil
    ) {
        self.action = action
        self.peer = peer
        self.via = via
        self.name = name
        self.seen = seen
        self.secret = secret
    }

    package static func admit(_ peer: PeerID, via: Via, name: String?) -> MemberStep {
        MemberStep(action: .admit, peer: peer, via: via, name: name)
    }

    package static func remove(_ peer: PeerID, seen: UInt64) -> MemberStep {
        MemberStep(action: .remove, peer: peer, seen: seen)
    }

    package static func secret(_ fingerprint: String) -> MemberStep {
        MemberStep(action: .secret, secret: fingerprint)
    }

    /// Why an operation of `origin` can't carry this step, or nil when it can.
    package func invalidReason(origin: PeerID) -> String? {
        switch action {
        case .admit:
            guard let peer, peer.rawValue.utf8.count == 32, via != nil, seen == nil, secret == nil else {
                return "an admission names a peer id of 32 hex digits and how it came in, and nothing else"
            }
            if peer == origin { return "a member does not admit itself" }
            if let name, name.isEmpty || name.unicodeScalars.count > 64 { return "a name is 1 to 64 characters" }
        case .remove:
            guard let peer, peer.rawValue.utf8.count == 32, seen != nil, via == nil, name == nil, secret == nil
            else {
                return "a removal names a peer id of 32 hex digits and how far its chain was seen, and nothing else"
            }
            if peer == origin { return "a member does not remove itself" }
        case .secret:
            guard let secret, secret.utf8.count == 32, PeerID(secret) != nil, peer == nil, via == nil,
                name == nil, seen == nil
            else { return "a secret record names the group key's fingerprint, 32 hex digits, and nothing else" }
        }
        return nil
    }

    package var description: String {
        switch action {
        case .admit: "admit \(peer?.short ?? "?") via \(via?.rawValue ?? "?")"
        case .remove: "remove \(peer?.short ?? "?") after seq \(seen ?? 0)"
        case .secret: "group secret \(secret?.prefix(8) ?? "?")"
        }
    }

    package static func == (lhs: MemberStep, rhs: MemberStep) -> Bool {
        lhs === rhs
            || (lhs.action == rhs.action && lhs.peer == rhs.peer && lhs.via == rhs.via && lhs.name == rhs.name
                && lhs.seen == rhs.seen && lhs.secret == rhs.secret)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(action)
        hasher.combine(peer)
        hasher.combine(seen)
    }
}
