import Crypto
import Foundation
import PeerdModel
import PeerdSecurity
import Testing

/// The operations in proto/golden/peer-ops*.bin are signed by fixed test keys (make_golden.py).
@Suite struct GoldenOperationSealTests {
    static let golden = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("proto/golden")

    /// The key make_golden.py signs `name`'s operations with: its scalar is SHA-256 of "peerd golden <name>".
    static func key(_ name: String) throws -> P256.Signing.PrivateKey {
        try P256.Signing.PrivateKey(rawRepresentation: SHA256.hash(data: Array("peerd golden \(name)".utf8)))
    }

    static func operations(in file: String) throws -> [PeerdModel.Operation] {
        let frame = try Data(contentsOf: golden.appendingPathComponent(file))
        let body = Array(frame.dropFirst(4))
        let prefix = Array(#"{"ops":"#.utf8)
        let suffix = Array(#","type":"ops"}"#.utf8)
        try #require(body.starts(with: prefix) && body.reversed().starts(with: suffix.reversed()))
        var reader = OperationJSONReader()
        let array = Array(body[prefix.count..<(body.count - suffix.count)])
        return try #require(array.withUnsafeBytes { reader.readArray($0) })
    }

    @Test(arguments: [("peer-ops.bin", "alice"), ("peer-ops-id-only.bin", "bob"), ("peer-ops-unicode.bin", "carol")])
    func everyGoldenOperationIsSignedByItsOrigin(file: String, name: String) throws {
        let key = try Self.key(name)
        let ops = try Self.operations(in: file)
        #expect(!ops.isEmpty)
        for op in ops {
            #expect(op.id.origin == Fingerprint.peer(ofPublicKeyDER: key.publicKey.derRepresentation))
            #expect(OperationSeal.isSignatureValid(op, key: key.publicKey))
        }
    }

    @Test func theGoldenChainsLinkAndTheFirstOperationCarriesItsKey() throws {
        let alice = try Self.operations(in: "peer-ops.bin")
        #expect(alice.map(\.id.seq) == [4, 5])
        #expect(alice[1].proof.prev.map(Array.init) == Array(OperationSeal.digest(of: alice[0])))
        var verifier = OperationVerifier()
        try verifier.verify(try Self.operations(in: "peer-ops-unicode.bin")) { _ in nil }
    }
}
