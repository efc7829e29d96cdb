import Foundation
import PeerdSecurity
import Testing

/// proto/golden/admission/: peerd reads each binary admission record as records.json says
/// (SECURITY.md, "The handshake"), and writes the canonical ones byte for byte.
@Suite struct GoldenAdmissionRecordTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // PeerdSecurityTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("proto/golden/admission")

    /// What records.json says one file holds.
    struct Held: Decodable, Sendable {
        var record: String?
        var nonce: String?
        var method: String?
        var mac: String?
        var reason: String?
        var at: Int64?
        var name: String?
        var canonical: Bool?
    }

    static let records: [String: Held] = {
        let data = (try? Data(contentsOf: folder.appendingPathComponent("records.json"))) ?? Data()
        return (try? JSONDecoder().decode([String: Held].self, from: data)) ?? [:]
    }()

    static let reasons: [String: AdmissionRefusal] = [
        "not-a-member": .notAMember, "revoked": .revoked, "key-mismatch": .keyMismatch,
        "self-connection": .selfConnection, "busy": .busy, "unsupported-key": .unsupportedKey,
        "invite-used": .inviteUsed, "invite-expired": .inviteExpired, "removed": .removed,
    ]
    static let methods: [String: AdmissionMethod] = ["none": .none, "group": .group, "invite": .invite]

    @Test func everyRecordIsListed() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter {
            $0.hasSuffix(".bin")
        }
        #expect(!files.isEmpty)
        #expect(Set(files) == Set(Self.records.keys))
    }

    @Test(arguments: records.keys.sorted())
    func aRecordReadsAsRecordsJSONSays(file: String) throws {
        let held = try #require(Self.records[file])
        let frame = Array(try Data(contentsOf: Self.folder.appendingPathComponent(file)))
        let body = Array(frame.dropFirst(4))
        #expect(frame.prefix(4).reduce(0) { $0 << 8 | Int($1) } == body.count)
        let offer = AdmissionRecord.nonce(ofOffer: body)
        let proof = AdmissionRecord.parseProof(body)
        let refusal = AdmissionRecord.parseRefusal(body)
        switch held.record {
        case "offer":
            #expect(offer.map(hex) == held.nonce)
            if held.canonical == true { #expect(AdmissionRecord.offer(nonce: try #require(offer)) == body) }
        case "proof":
            let proof = try #require(proof)
            #expect(proof.method == Self.methods[held.method ?? ""] && hex(proof.mac) == held.mac)
            if held.canonical == true { #expect(AdmissionRecord.proof(method: proof.method, mac: proof.mac) == body) }
        case "refusal":
            #expect(refusal == Self.reasons[held.reason ?? ""])
            let spent = AdmissionRecord.parseSpentInvite(body)
            #expect(spent?.at == held.at && spent?.inviter == held.name)
            guard held.canonical == true else { break }
            #expect((spent.map(AdmissionRecord.refusal) ?? refusal.map(AdmissionRecord.refusal)) == body)
        default:
            #expect(offer == nil && proof == nil && refusal == nil, "\(file) is no record")
        }
    }

    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
}
