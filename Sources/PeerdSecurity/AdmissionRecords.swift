/// The binary records of the admission handshake (proto/SECURITY.md, "The handshake"). They are
/// small, bounded and not JSON, so nothing from a party that is not yet trusted reaches a JSON parser.
package enum AdmissionRecord {
    package static let offerLength = 36
    package static let proofLength = 37
    /// A refusal is 5 bytes, or, for a spent invite code, 14 bytes and its inviter's name.
    package static let refusalLength = 5
    package static let spentInviteRefusalLength = 14
    /// The longest refusal record: a spent invite's, with a name of ``SpentInvite/maxNameLength`` bytes.
    package static let maxRefusalLength = spentInviteRefusalLength + SpentInvite.maxNameLength
    /// The frame limit for each of the first two frames a side receives.
    package static let maxLength = 64

    static let offerMagic: [UInt8] = Array("WLO1".utf8)
    static let proofMagic: [UInt8] = Array("WLP1".utf8)
    static let refusalMagic: [UInt8] = Array("WLR1".utf8)

    package static func offer(nonce: [UInt8]) -> [UInt8] {
        precondition(nonce.count == 32)
        return offerMagic + nonce
    }

    /// The nonce of an offer, or nil if `bytes` is not one.
    package static func nonce(ofOffer bytes: some Collection<UInt8>) -> [UInt8]? {
        guard bytes.count == offerLength, bytes.starts(with: offerMagic) else { return nil }
        return Array(bytes.dropFirst(4))
    }

    package static func proof(method: AdmissionMethod, mac: [UInt8]) -> [UInt8] {
        precondition(mac.count == 32)
        return proofMagic + [method.rawValue] + mac
    }

    package static func parseProof(_ bytes: some Collection<UInt8>) -> (method: AdmissionMethod, mac: [UInt8])? {
        let bytes = Array(bytes)
        guard bytes.count == proofLength, bytes.starts(with: proofMagic),
            let method = AdmissionMethod(rawValue: bytes[4])
        else { return nil }
        return (method, Array(bytes[5...]))
    }

    package static func refusal(_ reason: AdmissionRefusal) -> [UInt8] {
        refusalMagic + [reason.rawValue]
    }

    /// A refusal that says when and who: a proof made with a spent invite code, or a key removed
    /// from the group:
    ///
    ///     "WLR1" | reason (7 used, 8 expired, 9 removed) | when, ms since 1970 (u64 BE) | name length n | n bytes of UTF-8
    ///
    /// The name is cut to ``SpentInvite/maxNameLength`` bytes, at a character's end.
    package static func refusal(_ spent: SpentInvite) -> [UInt8] {
        let name = SpentInvite.cut(spent.inviter ?? "")
        let at = UInt64(clamping: max(spent.at, 0))
        let time = (0..<8).reversed().map { UInt8(truncatingIfNeeded: at >> ($0 * 8)) }
        return refusalMagic + [spent.refusal.rawValue] + time + [UInt8(name.count)] + name
    }

    /// The reason of a refusal record, or nil if `bytes` is not one (an unknown reason reads as
    /// `notAMember`: still a refusal).
    package static func parseRefusal(_ bytes: some Collection<UInt8>) -> AdmissionRefusal? {
        let bytes = Array(bytes)
        guard bytes.starts(with: refusalMagic) else { return nil }
        if bytes.count == refusalLength { return AdmissionRefusal(rawValue: bytes[4]) ?? .notAMember }
        return parseSpentInvite(bytes)?.refusal
    }

    /// What a spent invite's refusal record says, or nil if `bytes` is not one. A name that is not
    /// UTF-8 or holds control characters is left out; the refusal still holds.
    package static func parseSpentInvite(_ bytes: some Collection<UInt8>) -> SpentInvite? {
        let bytes = Array(bytes)
        guard bytes.count >= spentInviteRefusalLength, bytes.count <= maxRefusalLength,
            bytes.starts(with: refusalMagic),
            Int(bytes[13]) == bytes.count - spentInviteRefusalLength
        else { return nil }
        let fate: SpentInvite.Fate
        switch AdmissionRefusal(rawValue: bytes[4]) {
        case .inviteUsed: fate = .used
        case .inviteExpired: fate = .expired
        case .removed: fate = .removed
        default: return nil
        }
        let at = bytes[5..<13].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let name = String(validating: bytes[14...], as: UTF8.self)
        let printable = name.flatMap {
            $0.unicodeScalars.contains { $0.properties.generalCategory == .control } ? nil : $0
        }
        return SpentInvite(fate, at: Int64(clamping: at), inviter: printable?.isEmpty == false ? printable : nil)
    }
}

/// A refusal that says when and by whom. Mostly an invite code its inviter no longer takes, as the
/// inviter tells a joiner who brings it: used or expired, when, and whom to ask for a new one. The
/// same record tells a key removed from the group who removed it, and when.
package struct SpentInvite: Hashable, Sendable {
    package enum Fate: Hashable, Sendable {
        case used
        case expired
        /// Not an invite: the prover's key was removed from the group.
        case removed
    }

    package var fate: Fate
    /// When the code was used, or expired, or the key removed: milliseconds since 1970.
    package var at: Int64
    /// The inviter's name (its `--name`), or the remover's, if there is one to give.
    package var inviter: String?

    /// The longest name a refusal record carries, in UTF-8 bytes.
    package static let maxNameLength = 64

    package init(_ fate: Fate, at: Int64, inviter: String?) {
        self.fate = fate
        self.at = at
        self.inviter = inviter
    }

    package var refusal: AdmissionRefusal {
        switch fate {
        case .used: .inviteUsed
        case .expired: .inviteExpired
        case .removed: .removed
        }
    }

    /// `name`'s UTF-8, cut to ``maxNameLength`` bytes without splitting a character.
    static func cut(_ name: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for character in name {
            let next = Array(character.utf8)
            guard bytes.count + next.count <= maxNameLength else { break }
            bytes += next
        }
        return bytes
    }
}

/// How a prover shows it belongs.
package enum AdmissionMethod: UInt8, Sendable {
    case none = 0
    case group = 1
    case invite = 2
}

/// Why a verifier refused; sent in the refusal record.
package enum AdmissionRefusal: UInt8, Sendable, CustomStringConvertible {
    case notAMember = 1
    case revoked = 2
    case keyMismatch = 3
    case selfConnection = 4
    case busy = 5
    case unsupportedKey = 6
    /// The proof was made with an invite code of the verifier's that was used already.
    case inviteUsed = 7
    /// The proof was made with an invite code of the verifier's that has expired.
    case inviteExpired = 8
    /// The prover's key was removed from the group (a `member` removal in the group's log).
    case removed = 9

    package var description: String {
        switch self {
        case .notAMember: "not a member: pair first with 'peerctl invite' and 'peerctl join', or share a group secret"
        case .revoked: "revoked with 'peerctl forget'"
        case .keyMismatch: "presented a different key than the peer id it was reached for"
        case .selfConnection: "this address is this peerd itself"
        case .busy: "too many connections are being set up"
        case .unsupportedKey: "its certificate's key is not P-256, the only key a peer identity is"
        case .inviteUsed: "the invite code was already used"
        case .inviteExpired: "the invite code has expired"
        case .removed: "removed from the group"
        }
    }
}
