import Crypto
import Foundation
import Logging
import PeerdModel
import PeerdSecurity
import PeerdTestKit
import SwiftASN1
import SystemPackage
import Testing
import X509

@Suite struct PeerIdentityTests {
    let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    func mode(_ path: FilePath) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path.string)[.posixPermissions] as? Int) ?? -1
    }

    @Test func theFirstStartMakesAPrivateKeyAndACertificateForIt() throws {
        try withScratchDirectory("identity") { root in
            let identity = try PeerIdentity.loadOrCreate(in: root, logger: logger)
            #expect(try mode(root.appending("identity.key")) == 0o600)
            let pem = try String(contentsOfFile: root.appending("identity.crt").string, encoding: .utf8)
            let certificate = try Certificate(pemEncoded: pem)
            #expect(certificate.publicKey == Certificate.PublicKey(identity.privateKey.publicKey))
            #expect(certificate.subject.description.contains(identity.peer.rawValue))
            #expect(identity.peer.rawValue.count == 32)
        }
    }

    @Test func thePeerIDIsTheKeysFingerprintAndSurvivesRestarts() throws {
        try withScratchDirectory("identity") { root in
            let first = try PeerIdentity.loadOrCreate(in: root, logger: logger)
            let second = try PeerIdentity.loadOrCreate(in: root, logger: logger)
            #expect(first.peer == second.peer)
            #expect(first.certificateDER == second.certificateDER)
            let digest = SHA256.hash(data: first.privateKey.publicKey.derRepresentation)
            #expect(first.peer.rawValue == digest.prefix(16).map { String(format: "%02x", $0) }.joined())
            // Another key, another id.
            #expect(try PeerIdentity.generate().peer != first.peer)
        }
    }

    @Test func aKeyOthersCanReadIsRefused() throws {
        try withScratchDirectory("identity") { root in
            _ = try PeerIdentity.loadOrCreate(in: root, logger: logger)
            chmod(root.appending("identity.key").string, 0o644)
            let error = #expect(throws: IdentityError.self) { try PeerIdentity.loadOrCreate(in: root, logger: logger) }
            #expect(error?.description.contains("chmod 600") == true)
        }
    }

    @Test func aDamagedKeyIsReportedAndNotReplaced() throws {
        try withScratchDirectory("identity") { root in
            let path = root.appending("identity.key")
            _ = FileManager.default.createFile(
                atPath: path.string,
                contents: Data("garbage".utf8),
                attributes: [.posixPermissions: 0o600]
            )
            let error = #expect(throws: IdentityError.self) { try PeerIdentity.loadOrCreate(in: root, logger: logger) }
            #expect(error?.description.contains("not a P-256 private key") == true)
            let kept = try String(contentsOfFile: path.string, encoding: .utf8)
            #expect(kept == "garbage")
        }
    }

    @Test func aStateDirectoryFromBeforeKeysIsNotSilentlyGivenANewIdentity() throws {
        try withScratchDirectory("identity") { root in
            _ = FileManager.default.createFile(
                atPath: root.appending("identity.json").string,
                contents: Data("{}".utf8)
            )
            let error = #expect(throws: IdentityError.self) { try PeerIdentity.loadOrCreate(in: root, logger: logger) }
            #expect(error?.description.contains("unsigned") == true)
        }
    }
}
