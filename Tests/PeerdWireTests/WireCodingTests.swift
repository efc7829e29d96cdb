import PeerdModel
import PeerdWire
import Testing

@Suite("WireCoding")
struct WireCodingTests {
    /// The `WireError` decoding `body` as `T` throws, or nil if it decodes.
    private static func error<T: Decodable>(decoding body: String, as type: T.Type) -> WireError? {
        error(decoding: Array(body.utf8), as: type)
    }

    private static func error<T: Decodable>(decoding body: [UInt8], as type: T.Type) -> WireError? {
        do throws(WireError) {
            _ = try WireCoding.decode(type, from: body)
            return nil
        } catch {
            return error
        }
    }

    /// A ping whose extra field nests arrays so the body is `depth` levels deep.
    private static func ping(depth: Int) -> String {
        #"{"type":"ping","deep":"# + String(repeating: "[", count: depth - 1)
            + String(repeating: "]", count: depth - 1) + "}"
    }

    @Test("JSON nested 16 levels deep decodes and 17 levels is refused")
    func nestingLimit() throws {
        #expect(WireCoding.maxNestingDepth == 16)
        #expect(try WireCoding.decode(PeerMessage.self, from: Array(Self.ping(depth: 16).utf8)) == .ping)
        let error = Self.error(decoding: Self.ping(depth: 17), as: PeerMessage.self)
        #expect(error?.code == .malformedFrame)
        #expect(error?.message.contains("16") == true)
    }

    @Test("brackets inside strings, escaped quotes included, don't count as nesting")
    func bracketsInStringsAreNotNesting() throws {
        let deep = String(repeating: "[{", count: 40)
        let body = #"{"type":"ping","note":"\""# + deep + #"\\","other":"]]]}}}"}"#
        #expect(try WireCoding.decode(PeerMessage.self, from: Array(body.utf8)) == .ping)
    }

    @Test(
        "a body that is not one JSON object is a malformed frame",
        arguments: [#"[{"type":"ping"}]"#, #""ping""#, "42", "null", "", "   ", #"{"type":"ping"}{"type":"ping"}"#]
    )
    func topLevelMustBeOneObject(_ body: String) {
        #expect(Self.error(decoding: body, as: PeerMessage.self)?.code == .malformedFrame)
        #expect(Self.error(decoding: body, as: ControlRequest.self)?.code == .malformedFrame)
    }

    @Test("a body that is not UTF-8 is a malformed frame, even where the bad bytes sit in an unknown field")
    func invalidUTF8IsMalformed() {
        let inUnknownField = Array(#"{"note":""#.utf8) + [0xFF] + Array(#"","type":"ping"}"#.utf8)
        let error = Self.error(decoding: inUnknownField, as: PeerMessage.self)
        #expect(error?.code == .malformedFrame)
        #expect(error?.message.contains("UTF-8") == true)

        let inType = Array(#"{"type":"p"#.utf8) + [0xC3, 0x28] + Array(#"ng"}"#.utf8)
        #expect(Self.error(decoding: inType, as: PeerMessage.self)?.code == .malformedFrame)
        let request = Array(#"{"type":"status","version":1,"x":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8)
        #expect(Self.error(decoding: request, as: ControlRequest.self)?.code == .malformedFrame)
    }

    @Test("an unknown peer message type is reported with its name")
    func unknownPeerType() {
        let error = Self.error(decoding: #"{"type":"gossip"}"#, as: PeerMessage.self)
        #expect(error?.code == .unknownType)
        #expect(error?.message.contains("'gossip'") == true)
    }

    @Test("an unknown control request or response type is reported with its name")
    func unknownControlTypes() {
        let request = Self.error(decoding: #"{"type":"delete","version":1}"#, as: ControlRequest.self)
        #expect(request?.code == .unknownType)
        #expect(request?.message.contains("'delete'") == true)
        let response = Self.error(decoding: #"{"type":"welcome"}"#, as: ControlResponse.self)
        #expect(response?.code == .unknownType)
        #expect(response?.message.contains("'welcome'") == true)
    }

    @Test("a message without a type is a malformed frame that names the missing field")
    func missingType() {
        let error = Self.error(decoding: #"{"version":1}"#, as: PeerMessage.self)
        #expect(error?.code == .malformedFrame)
        #expect(error?.message.contains("'type'") == true)
    }

    @Test("a hello of another version is refused with the version this peerd speaks, whatever else it holds")
    func helloOfAnotherVersion() {
        let full = #"{"type":"hello","version":4,"peer":"a1b2c3d4","name":"a","port":1,"vector":{}}"#
        let error = Self.error(decoding: full, as: PeerMessage.self)
        #expect(error?.code == .unsupportedVersion)
        #expect(error?.message.contains("version 4") == true)
        #expect(error?.message.contains("speaks version 3") == true)
        #expect(error?.message.contains("upgrade") == false)

        // Version 2 can't honour removals from the group: the older side is told to upgrade.
        let older = #"{"type":"hello","version":2,"peer":"a1b2c3d4","name":"a","port":1,"vector":{}}"#
        let refusal = Self.error(decoding: older, as: PeerMessage.self)
        #expect(refusal?.code == .unsupportedVersion)
        #expect(refusal?.message.contains("can't honour removals from the group; upgrade it") == true)

        let shapeOfTheFuture = #"{"type":"hello","version":4,"identity":{"key":"…"}}"#
        #expect(Self.error(decoding: shapeOfTheFuture, as: PeerMessage.self)?.code == .unsupportedVersion)
    }

    @Test("a control request of another version is refused with the version this peerd speaks")
    func controlVersion2() {
        let error = Self.error(decoding: #"{"type":"list","version":2}"#, as: ControlRequest.self)
        #expect(error?.code == .unsupportedVersion)
        #expect(error?.message.contains("version 2") == true)
        #expect(error?.message.contains("speaks version 1") == true)
        let unknownTypeToo = Self.error(decoding: #"{"type":"frobnicate","version":2}"#, as: ControlRequest.self)
        #expect(unknownTypeToo?.code == .unsupportedVersion)
    }

    @Test("a control request without a version is a malformed frame")
    func controlVersionMissing() {
        let error = Self.error(decoding: #"{"type":"list"}"#, as: ControlRequest.self)
        #expect(error?.code == .malformedFrame)
        #expect(error?.message.contains("'version'") == true)
    }

    @Test("fields a message doesn't define are ignored")
    func unknownFieldsAreIgnored() throws {
        let body = #"{"type":"hello","version":3,"peer":"a1b2c3d4","name":"a","port":7820,"vector":{},"tls":true}"#
        let message = try WireCoding.decode(PeerMessage.self, from: Array(body.utf8))
        let hello = PeerMessage.Hello(peer: PeerID("a1b2c3d4")!, name: "a", port: 7820, vector: VersionVector())
        #expect(message == .hello(hello))
    }

    @Test("encoding sorts keys, leaves slashes and non-ASCII alone, and omits what is absent")
    func encodingRules() {
        let origin = PeerID("a1b2c3d4")!
        let add = Operation(
            id: OperationID(origin: origin, seq: 1),
            lamport: 1,
            at: 0,
            by: "zoë",
            kind: .add,
            movie: Movie(id: MovieID(1)!, title: "AC/DC")
        )
        let body = String(decoding: WireCoding.encode(PeerMessage.ops([add])), as: UTF8.self)
        #expect(
            body
                == #"{"ops":[{"at":0,"by":"zoë","lamport":1,"movie":{"id":1,"title":"AC/DC"},"op":"add","#
                + #""origin":"a1b2c3d4","seq":1}],"type":"ops"}"#
        )
    }

    @Test("a removal always carries removes, an add never does")
    func removesOnlyOnRemovals() throws {
        let origin = PeerID("a1b2c3d4")!
        let remove = Operation(
            id: OperationID(origin: origin, seq: 2),
            lamport: 2,
            at: 0,
            by: "a",
            kind: .remove,
            movie: Movie(id: MovieID(1)!),
            removes: [OperationID(origin: origin, seq: 1)]
        )
        let body = String(decoding: WireCoding.encode(remove), as: UTF8.self)
        #expect(body.contains(#""removes":[{"origin":"a1b2c3d4","seq":1}]"#))
        #expect(try WireCoding.decode(Operation.self, from: Array(body.utf8)) == remove)
    }
}
