import Foundation
import PeerdCodec
import PeerdModel
import Testing

/// The watch list's operation, not Foundation's `Operation` (NSOperation).
private typealias Operation = PeerdModel.Operation

/// `member` operations (proto/PEER.md, "Membership") through every path an operation takes:
/// `OperationJSON`, `OperationJSONReader` and `Codable`.
@Suite("Member operation JSON")
struct MemberOperationCodecTests {
    private static let origin = PeerID("a11ce000000000000000000000000001")!
    private static let carol = PeerID("ca401000000000000000000000000003")!

    private static func member(_ step: MemberStep, seq: UInt64 = 4) -> Operation {
        Operation(
            id: OperationID(origin: origin, seq: seq),
            lamport: 9,
            at: 1_763_700_000_000,
            by: "alice",
            kind: .member,
            movie: Operation.groupMovie,
            payload: .member(step)
        )
    }

    private static func decode(_ json: String) throws -> Operation {
        var reader = OperationJSONReader()
        return try Array(json.utf8).withUnsafeBytes { try reader.decode($0) }
    }

    private static let steps: [MemberStep] =
        MemberStep.Via.allCases.map { .admit(carol, via: $0, name: "carol") } + [
            .admit(carol, via: .pinned, name: nil),
            .remove(carol, seen: 0),
            .remove(carol, seen: 42),
            .secret("5ec0000000000000000000000000000a"),
        ]

    @Test(arguments: steps)
    func aMemberOperationRoundTripsThroughEveryPath(step: MemberStep) throws {
        let operation = Self.member(step)
        #expect(operation.invalidReason == nil)
        let written = OperationJSON.encode(operation)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(written == Array(try encoder.encode(operation)), "\(String(decoding: written, as: UTF8.self))")

        var reader = OperationJSONReader()
        let read = try written.withUnsafeBytes { try reader.decode($0) }
        #expect(read == operation)
        #expect(read.member == step)
        #expect(read.verbatim == nil)
        #expect(try JSONDecoder().decode(Operation.self, from: Data(written)) == operation)
    }

    @Test func aRemovalIsWrittenInItsCanonicalForm() {
        let json = String(decoding: OperationJSON.encode(Self.member(.remove(Self.carol, seen: 2))), as: UTF8.self)
        #expect(
            json
                == #"{"at":1763700000000,"by":"alice","lamport":9,"member":{"action":"remove","peer":"\#(Self.carol)","#
                + #""seen":2},"movie":{"id":1},"op":"member","origin":"\#(Self.origin)","seq":4}"#
        )
    }

    @Test(arguments: [
        #"{"action":"suspend","peer":"ca401000000000000000000000000003"}"#,
        #"{"action":"admit","peer":"ca401000000000000000000000000003","via":"carrier-pigeon"}"#,
    ])
    func aMemberStepOfAnActionOrWayThisVersionDoesNotKnowIsKeptVerbatimAsAnUnknownKind(member: String) throws {
        let json =
            #"{"at":1,"by":"alice","lamport":2,"member":\#(member),"movie":{"id":1},"op":"member","#
            + #""origin":"\#(Self.origin)","seq":1}"#
        let operation = try Self.decode(json)
        #expect(operation.kind == .unknown)
        #expect(operation.member == nil)
        #expect(operation.invalidReason == nil)
        #expect(operation.verbatim?.bytes == Array(json.utf8))
        var written: [UInt8] = []
        OperationJSON.append(operation, to: &written)
        #expect(String(decoding: written, as: UTF8.self) == json)
    }

    @Test func aMemberOperationCarryingAMarkToo() {
        let json =
            #"{"at":1,"by":"alice","lamport":2,"mark":{"kind":"want","set":true},"member":{"action":"secret","#
            + #""secret":"5ec0000000000000000000000000000a"},"movie":{"id":1},"op":"member","#
            + #""origin":"\#(Self.origin)","seq":1}"#
        #expect(throws: DecodingError.self) { try Self.decode(json) }
    }
}
