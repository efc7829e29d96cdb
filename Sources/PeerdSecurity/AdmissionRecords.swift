/// The binary records of the admission handshake (proto/SECURITY.md, "The handshake"). They are
/// fixed-size and not JSON, so nothing from a party that is not yet trusted reaches a JSON parser.
package enum AdmissionRecord {
    package static let offerLength = 36
    package static let proofLength = 37
    package static let refusalLength = 5
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

    /// The reason of a refusal record, or nil if `bytes` is not one (an unknown reason reads as
    /// `notAMember`: still a refusal).
    package static func parseRefusal(_ bytes: some Collection<UInt8>) -> AdmissionRefusal? {
        guard bytes.count == refusalLength, bytes.starts(with: refusalMagic) else { return nil }
        return AdmissionRefusal(rawValue: bytes[bytes.index(bytes.startIndex, offsetBy: 4)]) ?? .notAMember
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

    package var description: String {
        switch self {
        case .notAMember: "not a member: pair first with 'peerctl invite' and 'peerctl join', or share a group secret"
        case .revoked: "revoked with 'peerctl forget'"
        case .keyMismatch: "presented a different key than the peer id it was reached for"
        case .selfConnection: "this address is this peerd itself"
        case .busy: "too many connections are being set up"
        case .unsupportedKey: "its certificate's key is not P-256, the only key a peer identity is"
        }
    }
}
