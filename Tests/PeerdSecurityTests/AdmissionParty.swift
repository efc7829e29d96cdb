import Crypto
import Foundation
import PeerdModel
import PeerdSecurity
import SwiftASN1
import X509

/// One end of a TLS session as admission sees it: the peer id and the certificate it presented.
struct AdmissionParty: Sendable {
    var peer: PeerID
    var certificate: [UInt8]

    /// A new identity key and its self-signed certificate.
    static func generate() throws -> AdmissionParty {
        let identity = try PeerIdentity.generate()
        return AdmissionParty(peer: identity.peer, certificate: identity.certificateDER)
    }

    /// A party whose certificate carries a P-384 key: TLS takes it, a peer identity it is not.
    static func withP384Key() throws -> AdmissionParty {
        let key = P384.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("p384") }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: Date(),
            notValidAfter: Date().addingTimeInterval(3_600),
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA384,
            extensions: Certificate.Extensions(),
            issuerPrivateKey: Certificate.PrivateKey(key)
        )
        let der = try certificate.serializeAsPEM().derBytes
        return AdmissionParty(peer: Fingerprint.peer(ofPublicKeyDER: key.publicKey.derRepresentation), certificate: der)
    }

    /// This party's handshake on a session whose other end is `remote`.
    func handshake(
        with remote: AdmissionParty,
        policy: AdmissionPolicy,
        expected: PeerID? = nil,
        nonce: [UInt8]? = nil
    ) -> AdmissionHandshake {
        AdmissionHandshake(
            endpoints: .init(
                local: peer,
                localCertificate: certificate,
                remote: remote.peer,
                remoteCertificate: remote.certificate
            ),
            policy: policy,
            expected: expected,
            nonce: nonce
        )
    }
}

/// What each end of one session decided: the admit or refuse action it reached, if any.
struct AdmissionOutcome {
    var first: AdmissionHandshake.Action?
    var second: AdmissionHandshake.Action?
}

/// Runs two handshakes against each other as `PeerConnection` does: each writes its offer at once,
/// feeds every frame it receives to its handshake and writes whatever the handshake says to send.
func admission(_ first: inout AdmissionHandshake, _ second: inout AdmissionHandshake) -> AdmissionOutcome {
    var toFirst = [second.offer()]
    var toSecond = [first.offer()]
    var outcome = AdmissionOutcome()
    while !toFirst.isEmpty || !toSecond.isEmpty {
        if !toFirst.isEmpty {
            for action in first.received(toFirst.removeFirst()) {
                if case .send(let bytes) = action { toSecond.append(bytes) } else { outcome.first = action }
            }
        }
        if !toSecond.isEmpty {
            for action in second.received(toSecond.removeFirst()) {
                if case .send(let bytes) = action { toFirst.append(bytes) } else { outcome.second = action }
            }
        }
    }
    return outcome
}

/// The bytes of the one `send` action among `actions`, if that is what they are.
func sent(_ actions: [AdmissionHandshake.Action]) -> [UInt8]? {
    guard actions.count == 1, case .send(let bytes) = actions[0] else { return nil }
    return bytes
}

/// A fixed 32-byte nonce.
func nonce(_ byte: UInt8) -> [UInt8] { [UInt8](repeating: byte, count: 32) }
