import Foundation
import PeerdCodec
import PeerdModel
import PeerdTestKit
import PropertyBased
import Testing

private typealias Operation = PeerdModel.Operation

/// proto/PEER.md, "Operations can grow": an operation holding a field or a kind this version does not
/// know is kept in its canonical form, so it is hashed, stored and relayed exactly as its origin made it.
@Suite("Operations can grow")
struct OperationsCanGrowTests {
    private static let origin = "e47d41781ad71e3c12901eaf77360415"

    private static func decode(_ json: String) throws -> Operation {
        var reader = OperationJSONReader()
        return try Array(json.utf8).withUnsafeBytes { try reader.decode($0) }
    }

    private static func written(_ operation: Operation, includingSig: Bool = true) -> String {
        var bytes: [UInt8] = []
        OperationJSON.append(operation, to: &bytes, includingSig: includingSig)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let sig = String(repeating: "A", count: 86) + "=="

    @Test func anUnknownTopLevelFieldIsKeptAndWrittenBackByteForByte() throws {
        let json =
            #"{"at":1,"by":"alice","lamport":2,"mood":{"stars":5,"tags":["a","b"]},"movie":{"id":603},"op":"add","#
            + #""origin":"\#(Self.origin)","seq":1,"sig":"\#(Self.sig)","zz":true}"#
        let operation = try Self.decode(json)
        #expect(operation.kind == .add && operation.movie.id == MovieID(603))
        #expect(operation.verbatim?.bytes == Array(json.utf8))
        #expect(Self.written(operation) == json)
        #expect(!Self.written(operation, includingSig: false).contains("sig"))
        #expect(Self.written(operation, includingSig: false).hasSuffix(#""seq":1,"zz":true}"#))
    }

    @Test func unknownFieldsInsideKnownObjectsAreKeptToo() throws {
        let json =
            #"{"at":1,"by":"a","lamport":2,"movie":{"id":550,"poster":"/x.jpg"},"op":"remove","#
            + #""origin":"\#(Self.origin)","removes":[{"note":1,"origin":"\#(Self.origin)","seq":1}],"seq":2}"#
        let operation = try Self.decode(json)
        #expect(operation.removes == [OperationID(origin: PeerID(Self.origin)!, seq: 1)])
        #expect(Self.written(operation) == json)
    }

    @Test func anUnknownFieldInsideADescribesDetailsIsKeptToo() throws {
        let json =
            #"{"at":1,"by":"a","details":{"fetchedAt":5,"language":"en-US","title":"T","#
            + #""watch":{"US":["Netflix"]}},"lamport":2,"movie":{"id":603},"op":"describe","#
            + #""origin":"\#(Self.origin)","seq":1}"#
        let operation = try Self.decode(json)
        #expect(operation.details == MovieDetails(.init(title: "T", language: "en-US", fetchedAt: 5)))
        #expect(operation.verbatim?.bytes == Array(json.utf8))
        #expect(Self.written(operation) == json)
    }

    @Test func anUnknownKindIsKeptAndNamesItsMovie() throws {
        let json =
            #"{"at":1,"by":"a","lamport":2,"movie":{"id":603},"op":"rate","origin":"\#(Self.origin)","#
            + #""seq":1,"stars":4}"#
        let operation = try Self.decode(json)
        #expect(operation.kind == .unknown)
        #expect(operation.invalidReason == nil)
        #expect(Self.written(operation) == json)
        var list = WatchList()
        #expect(list.apply(operation) == nil)
        #expect(list.count == 0)
    }

    @Test func aMarkOfAKindThisVersionDoesNotKnowIsKeptAsAnUnknownKind() throws {
        let json =
            #"{"at":1,"by":"a","lamport":2,"mark":{"kind":"skip","set":true},"movie":{"id":603},"op":"mark","#
            + #""origin":"\#(Self.origin)","seq":1}"#
        let operation = try Self.decode(json)
        #expect(operation.kind == .unknown && operation.mark == nil)
        #expect(operation.invalidReason == nil)
        #expect(Self.written(operation) == json)
        var marks = GroupMarks()
        let changed = marks.apply(operation)
        #expect(!changed)
    }

    @Test func aPickStepOfAnActionOrModeThisVersionDoesNotKnowIsKeptAsAnUnknownKind() throws {
        for pick in [
            #"{"action":"reopen","pick":{"origin":"\#(Self.origin)","seq":1}}"#, #"{"action":"open","mode":"swipe"}"#,
        ] {
            let json =
                #"{"at":1,"by":"a","lamport":2,"movie":{"id":1},"op":"pick","origin":"\#(Self.origin)","#
                + #""pick":\#(pick),"seq":2}"#
            let operation = try Self.decode(json)
            #expect(operation.kind == .unknown && operation.pick == nil)
            #expect(Self.written(operation) == json)
        }
    }

    @Test func aMarkWithAFieldThisVersionDoesNotKnowCountsAndIsKept() throws {
        let json =
            #"{"at":1,"by":"a","lamport":2,"mark":{"kind":"want","mood":"cozy","set":true},"movie":{"id":603},"#
            + #""op":"mark","origin":"\#(Self.origin)","seq":1}"#
        let operation = try Self.decode(json)
        #expect(operation.kind == .mark && operation.mark == Mark(kind: .want))
        #expect(Self.written(operation) == json)
    }

    @Test func aSenderThatIsNotCanonicalIsKeptInCanonicalForm() throws {
        let sent =
            #"{ "zz" : [ 1 , { "b" : 1 , "a" : "\u0041\/" } ], "seq": 1, "origin": "\#(Self.origin)", "op": "add","#
            + #" "movie": {"id": 603}, "lamport": 2, "by": "a", "at": 1 }"#
        let operation = try Self.decode(sent)
        #expect(
            Self.written(operation)
                == #"{"at":1,"by":"a","lamport":2,"movie":{"id":603},"op":"add","origin":"\#(Self.origin)","#
                + #""seq":1,"zz":[1,{"a":"A/","b":1}]}"#
        )
    }

    @Test func anOperationThisVersionKnowsEntirelyCarriesNoVerbatimCopy() throws {
        let json = #"{"at":1,"by":"a","lamport":2,"movie":{"id":603},"op":"add","origin":"\#(Self.origin)","seq":1}"#
        let spaced = json.replacingOccurrences(of: ",", with: " , ")
        #expect(try Self.decode(json).verbatim == nil)
        #expect(try JSONDecoder().decode(Operation.self, from: Data(spaced.utf8)).verbatim == nil)
    }

    @Test(arguments: [#""x":1.5"#, #""x":[2.25]"#, #""x":{"y":-0.5}"#, #""x":1e400"#])
    func aNumberWithAFractionIsRefused(_ member: String) {
        let json =
            #"{"at":1,"by":"a","lamport":2,"movie":{"id":603},"op":"add","origin":"\#(Self.origin)","seq":1,\#(member)}"#
        #expect(throws: DecodingError.self) { try Self.decode(json) }
    }

    @Test func aSigKeyNestedDeeperIsNotTheSignature() throws {
        let json =
            #"{"at":1,"by":"a","lamport":2,"movie":{"id":603},"nested":{"b":1,"sig":"x"},"op":"add","#
            + #""origin":"\#(Self.origin)","seq":1,"sig":"\#(Self.sig)","text":",\"sig\":\""}"#
        let unsigned = Self.written(try Self.decode(json), includingSig: false)
        #expect(unsigned.contains(#""nested":{"b":1,"sig":"x"}"#))
        #expect(!unsigned.contains(Self.sig))
        #expect(unsigned.hasSuffix(#""seq":1,"text":",\"sig\":\""}"#))
    }

    @Test func anyExtraValueRoundTripsThroughBothReaders() async {
        await propertyCheck(input: Gen.uint64().map { JSONValue.random(seed: $0) }) { extra in
            var members: [String: JSONValue] = [
                "at": .integer(1), "by": .string("a"), "lamport": .integer(2), "movie": .object(["id": .integer(603)]),
                "op": .string("add"), "origin": .string(Self.origin), "seq": .integer(1),
            ]
            members["extra"] = extra
            let canonical = JSONValue.object(members).canonical
            let operation = try Self.decode(String(decoding: canonical, as: UTF8.self))
            #expect(OperationJSON.encode(operation) == canonical)
            #expect(try JSONDecoder().decode(Operation.self, from: Data(canonical)) == operation)
        }
    }

    @Test func canonicalJSONIsWhatJSONEncoderWritesWithSortedKeys() async {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        await propertyCheck(input: Gen.uint64().map { JSONValue.random(seed: $0) }) { value in
            let reference = Array(try encoder.encode(value))
            #expect(value.canonical == reference)
        }
    }
}

extension JSONValue {
    /// A JSON value from `seed`: integers of both ranges, strings with escapes and non-ASCII, arrays
    /// and objects nested up to `depth`.
    static func random(seed: UInt64, depth: Int = 3) -> JSONValue {
        var rng = SplitMix64(seed: seed)
        return random(depth: depth, using: &rng)
    }

    private static let texts = ["", "a", "é", "🎬", "\"\\/", "\n\t\u{1}\u{7F}", "sig", "zz", "Z"]

    private static func random(depth: Int, using rng: inout SplitMix64) -> JSONValue {
        switch Int.random(in: 0..<(depth > 0 ? 8 : 6), using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .integer(Int64.random(in: .min ... .max, using: &rng))
        case 3: return .largeInteger(UInt64.random(in: UInt64(Int64.max) + 1 ... .max, using: &rng))
        case 4, 5: return .string(texts.randomElement(using: &rng)!)
        case 6:
            return .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in random(depth: depth - 1, using: &rng) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                members[texts.randomElement(using: &rng)!] = random(depth: depth - 1, using: &rng)
            }
            return .object(members)
        }
    }
}
