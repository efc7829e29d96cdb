import Crypto
import Foundation
import PeerdCodec
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
        // Operations of a later version are not in the fast reader's shape: JSONDecoder keeps them verbatim.
        return try array.withUnsafeBytes { reader.readArray($0) }
            ?? JSONDecoder().decode([PeerdModel.Operation].self, from: Data(array))
    }

    @Test(arguments: [
        ("peer-ops.bin", "alice"), ("peer-ops-id-only.bin", "bob"), ("peer-ops-unicode.bin", "carol"),
        ("peer-ops-later-version.bin", "bob"), ("peer-ops-describe.bin", "alice"),
        ("peer-ops-describe-providers.bin", "alice"), ("peer-ops-settings.bin", "alice"),
        ("peer-ops-mark.bin", "alice"), ("peer-ops-watch.bin", "bob"), ("peer-ops-pick-open.bin", "alice"),
        ("peer-ops-member-admit.bin", "alice"), ("peer-ops-member-remove.bin", "alice"),
        ("peer-ops-member-secret.bin", "alice"),
    ])
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

    /// alice's marks chain on from her settings operation (seq 8), bob's watch on from his seq 8, of a kind
    /// this version does not know (PEER.md, "Marks and watches").
    @Test func theMarksAndTheWatchChainOnFromTheirOriginsEarlierOperations() throws {
        let settings = try Self.operations(in: "peer-ops-settings.bin")
        let marks = try Self.operations(in: "peer-ops-mark.bin")
        #expect(marks.map(\.id.seq) == [9, 10, 11])
        for (previous, op) in zip(settings + marks, marks) {
            #expect(op.proof.prev.map(Array.init) == Array(OperationSeal.digest(of: previous)))
        }
        let later = try Self.operations(in: "peer-ops-later-version.bin")
        let watch = try Self.operations(in: "peer-ops-watch.bin")
        #expect(watch.map(\.id.seq) == [9])
        #expect(watch[0].proof.prev.map(Array.init) == Array(OperationSeal.digest(of: later[1])))
    }

    /// The picks' steps come from three origins, each signed by its own and chained on from its earlier
    /// operations (PEER.md, "Picks"): zoë's from her seq 1, alice's from her opening (seq 14, which
    /// chains through seqs 12 and 13, in no frame), bob's from his watch (seq 9).
    @Test(arguments: ["peer-ops-pick-votes.bin", "peer-ops-pick-ranked.bin"])
    func theStepsOfAPickAreSignedByTheirOrigins(file: String) throws {
        let keys = try ["alice", "bob", "carol"].map(Self.key)
        for op in try Self.operations(in: file) {
            let key = try #require(
                keys.first { Fingerprint.peer(ofPublicKeyDER: $0.publicKey.derRepresentation) == op.id.origin }
            )
            #expect(OperationSeal.isSignatureValid(op, key: key.publicKey), "\(op.id)")
        }
    }

    @Test func theStepsOfAPickChainOnFromTheirOriginsEarlierOperations() throws {
        let opening = try Self.operations(in: "peer-ops-pick-open.bin")
        #expect(opening.map(\.id.seq) == [14])
        let earlier = try ["peer-ops-unicode.bin", "peer-ops-watch.bin"].compactMap { try Self.operations(in: $0).last }
        var last = Dictionary(uniqueKeysWithValues: (opening + earlier).map { ($0.id.origin, $0) })
        for file in ["peer-ops-pick-votes.bin", "peer-ops-pick-ranked.bin"] {
            for op in try Self.operations(in: file) {
                let previous = try #require(
                    last[op.id.origin],
                    "\(op.id) has no earlier operation in the golden frames"
                )
                #expect(op.id.seq == previous.id.seq + 1, "\(op.id)")
                #expect(op.proof.prev.map(Array.init) == Array(OperationSeal.digest(of: previous)), "\(op.id)")
                last[op.id.origin] = op
            }
        }
    }

    @Test func theLaterVersionOperationsChainOnFromBobsSeq6() throws {
        let stored = try Self.operations(in: "peer-ops-id-only.bin")
        let later = try Self.operations(in: "peer-ops-later-version.bin")
        #expect(later.map(\.id.seq) == [7, 8])
        #expect(later.allSatisfy { $0.verbatim != nil })
        #expect(later[1].kind == .unknown)
        #expect(later[0].proof.prev.map(Array.init) == Array(OperationSeal.digest(of: stored[0])))
        #expect(later[1].proof.prev.map(Array.init) == Array(OperationSeal.digest(of: later[0])))
    }
}
