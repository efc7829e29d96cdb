package import Crypto
package import Logging
package import PeerdModel
package import PeerdStore
import SwiftASN1
package import SystemPackage
import X509

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
import Foundation
#endif

/// This daemon's identity: a P-256 key made at first start, and the self-signed certificate it
/// presents in TLS. The peer id is the key's fingerprint, so it cannot be claimed without the key.
///
/// ```
/// <state-dir>/identity.key   the private key, PKCS#8 PEM, mode 0600
/// <state-dir>/identity.crt   the certificate, PEM (public; made from the key)
/// ```
///
/// P-256 rather than Ed25519: BoringSSL offers it in TLS 1.3 by default on both sides, and the
/// same key signs operations (`OperationSeal`), so one key is the whole identity.
package struct PeerIdentity: Sendable {
    /// The fingerprint of `publicKeyDER`: what everyone calls this peer.
    package let peer: PeerID
    package let privateKey: P256.Signing.PrivateKey
    /// The certificate presented in TLS, DER.
    package let certificateDER: [UInt8]

    /// The public key as a DER SubjectPublicKeyInfo: the bytes the fingerprint is taken of.
    package var publicKeyDER: [UInt8] { Array(privateKey.publicKey.derRepresentation) }
    package var privateKeyPEM: String { privateKey.pemRepresentation }

    package init(privateKey: P256.Signing.PrivateKey, certificateDER: [UInt8]) {
        self.privateKey = privateKey
        self.certificateDER = certificateDER
        self.peer = Fingerprint.peer(ofPublicKeyDER: privateKey.publicKey.derRepresentation)
    }

    /// A new key and its certificate.
    package static func generate(name: String = "peerd") throws -> PeerIdentity {
        let key = P256.Signing.PrivateKey()
        return PeerIdentity(privateKey: key, certificateDER: try makeCertificate(for: key, name: name))
    }

    /// Loads `identity.key` (and `identity.crt`, remade when missing or not for this key) from
    /// `directory`, or makes both on first start.
    package static func loadOrCreate(in directory: FilePath, logger: Logger) throws(IdentityError) -> PeerIdentity {
        let keyPath = directory.appending("identity.key")
        let certificatePath = directory.appending("identity.crt")
        do {
            let key: P256.Signing.PrivateKey
            if let pem = try AtomicFile.read(keyPath) {
                do {
                    key = try P256.Signing.PrivateKey(pemRepresentation: String(decoding: pem, as: UTF8.self))
                } catch {
                    throw IdentityError.unreadableKey(keyPath, "\(error)")
                }
                try checkPrivate(keyPath, logger: logger)
            } else {
                if try AtomicFile.read(directory.appending("identity.json")) != nil {
                    throw IdentityError.unsignedStateDirectory(directory)
                }
                key = P256.Signing.PrivateKey()
                try AtomicFile.write(Array(key.pemRepresentation.utf8), to: keyPath)
                logger.info(
                    "created a new identity key",
                    metadata: ["peer": "\(Fingerprint.peer(ofPublicKeyDER: key.publicKey.derRepresentation))"]
                )
            }
            if let pem = try AtomicFile.read(certificatePath),
                let certificate = try? Certificate(pemEncoded: String(decoding: pem, as: UTF8.self)),
                certificate.publicKey == Certificate.PublicKey(key.publicKey)
            {
                return PeerIdentity(privateKey: key, certificateDER: try der(certificate))
            }
            let der = try makeCertificate(for: key, name: "peerd")
            let pem = PEMDocument(type: "CERTIFICATE", derBytes: der).pemString
            try AtomicFile.write(Array((pem + "\n").utf8), to: certificatePath)
            return PeerIdentity(privateKey: key, certificateDER: der)
        } catch let error as IdentityError {
            throw error
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .certificate("\(error)")
        }
    }

    /// A self-signed certificate for `key`. Nothing checks its dates or names (peers are pinned by
    /// key fingerprint, not by a CA), so it is valid for a century and named after the peer id.
    static func makeCertificate(for key: P256.Signing.PrivateKey, name: String) throws -> [UInt8] {
        let peer = Fingerprint.peer(ofPublicKeyDER: key.publicKey.derRepresentation)
        let subject = try DistinguishedName {
            CommonName("peerd \(peer.rawValue)")
            OrganizationName(name)
        }
        let now = Date()
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now.addingTimeInterval(-86_400),
            notValidAfter: now.addingTimeInterval(100 * 365 * 86_400),
            issuer: subject,
            subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
            },
            issuerPrivateKey: Certificate.PrivateKey(key)
        )
        return try der(certificate)
    }

    static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    /// A key others can read is refused outright: anyone who copies it can be this peer.
    private static func checkPrivate(_ path: FilePath, logger: Logger) throws(IdentityError) {
        guard let status = try? path.stat() else { return }
        if !status.permissions.isDisjoint(with: [.groupReadWriteExecute, .otherReadWriteExecute]) {
            throw .keyReadableByOthers(path, String(status.permissions.rawValue, radix: 8))
        }
    }
}

/// Peer ids are fingerprints: the first 128 bits of SHA-256 over the DER SubjectPublicKeyInfo,
/// as 32 lowercase hex digits. 128 bits keep a second key with the same id out of reach (2^128
/// work) and keep ids the width they always were.
package enum Fingerprint {
    package static func peer(ofPublicKeyDER der: some DataProtocol) -> PeerID {
        let digest = SHA256.hash(data: der)
        return PeerID(digest.prefix(16).map { hex($0) }.joined())!
    }

    /// Whether a certificate (DER) carries a P-256 key, the only kind a peer identity is: operations
    /// are signed with it (PEER.md), so a peer with any other key could not make one we accept.
    package static func hasP256Key(certificateDER der: [UInt8]) -> Bool {
        guard let certificate = try? Certificate(derEncoded: der) else { return false }
        return P256.Signing.PublicKey(certificate.publicKey) != nil
    }

    /// SHA-256 of a whole certificate: what the admission proof binds to.
    package static func certificateHash(_ der: some DataProtocol) -> [UInt8] {
        Array(SHA256.hash(data: der))
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xf)]])
    }
}

package enum IdentityError: Error, CustomStringConvertible {
    case store(StoreError)
    case unreadableKey(FilePath, String)
    case keyReadableByOthers(FilePath, String)
    case unsignedStateDirectory(FilePath)
    case certificate(String)

    package var description: String {
        switch self {
        case .store(let error): "\(error)"
        case .unreadableKey(let path, let reason):
            "\(path) is not a P-256 private key in PEM (\(reason)); move it aside to make this machine a new peer"
        case .keyReadableByOthers(let path, let mode):
            "\(path) has mode \(mode): others can read the identity key. Run: chmod 600 \(path)"
        case .unsignedStateDirectory(let path):
            "\(path) was made by a peerd without identity keys (it has identity.json, no identity.key); "
                + "its operations are unsigned and no peer would accept them. Move it aside to start afresh."
        case .certificate(let reason): "could not make the TLS certificate: \(reason)"
        }
    }
}
