import PeerdModel
import Testing

@testable import PeerdWire

/// The string and array limits (proto/README.md "Limits"), on the general path and on the fast
/// `ops` path, which must refuse exactly the same bodies with the same error.
@Suite("String and array limits")
struct WireLimitsTests {
    private static let alice = PeerID("a1b2c3d4e5f60718293a4b5c6d7e8f90")!

    private static func decodeError<T: Decodable>(_ body: [UInt8], as type: T.Type) -> WireError? {
        do throws(WireError) {
            _ = try WireCoding.decode(type, from: body)
            return nil
        } catch {
            return error
        }
    }

    /// Whether the fast `ops` parser took the body (nil: it left it to the general path).
    private static func fastPathAccepts(_ body: [UInt8]) -> Bool {
        body.withUnsafeBytes { WireCoding.fastOps($0) } != nil
    }

    private static func add(seq: UInt64, title: String? = nil, origin: PeerID = alice) -> PeerdModel.Operation {
        PeerdModel.Operation(
            id: OperationID(origin: origin, seq: seq),
            lamport: seq,
            at: 0,
            by: "a",
            kind: .add,
            movie: Movie(id: MovieID(1)!, title: title)
        )
    }

    private static func removal(of count: Int) -> PeerdModel.Operation {
        PeerdModel.Operation(
            id: OperationID(origin: alice, seq: 1),
            lamport: 1,
            at: 0,
            by: "a",
            kind: .remove,
            movie: Movie(id: MovieID(1)!),
            removes: (1...count).map { OperationID(origin: PeerID("0123abcd")!, seq: UInt64($0)) }
        )
    }

    private static func opsBody(_ operations: [PeerdModel.Operation]) -> [UInt8] {
        WireCoding.encode(PeerMessage.ops(operations))
    }

    @Test func theLimitsFitTheDomain() {
        #expect(WireCoding.maxStringBytes == 4_096)
        #expect(WireCoding.maxArrayElements == 16_384)
        // A 300-character title written entirely as escaped surrogate pairs still fits.
        #expect(300 * #"\ud83c\udfac"#.utf8.count <= WireCoding.maxStringBytes)
    }

    @Test func aStringAtTheLimitDecodesAndOneByteMoreIsRefusedOnTheGeneralPath() throws {
        func request(title: String) -> [UInt8] {
            Array(#"{"movie":{"id":603,"title":""#.utf8) + Array(title.utf8)
                + Array(#""},"type":"add","version":1}"#.utf8)
        }
        let atLimit = String(repeating: "x", count: WireCoding.maxStringBytes)
        let decoded = try WireCoding.decode(ControlRequest.self, from: request(title: atLimit))
        #expect(decoded == ControlRequest(AddRequest(movie: Movie(id: MovieID(603)!, title: atLimit))))

        let error = Self.decodeError(request(title: atLimit + "x"), as: ControlRequest.self)
        #expect(error?.code == .malformedFrame)
        #expect(error?.message.contains("longer than 4096 bytes") == true)
    }

    @Test func theStringLimitCountsBytesAsWrittenEscapesIncludedAndAppliesToKeysAndUnknownFields() {
        // 2,049 escaped tabs are 4,098 bytes on the wire: over the limit, though only 2,049 characters.
        let escaped = String(repeating: #"\t"#, count: WireCoding.maxStringBytes / 2 + 1)
        let inValue = Array(#"{"note":""#.utf8) + Array(escaped.utf8) + Array(#"","type":"ping"}"#.utf8)
        #expect(Self.decodeError(inValue, as: PeerMessage.self)?.code == .malformedFrame)
        let key = String(repeating: "k", count: WireCoding.maxStringBytes + 1)
        let inKey = Array(#"{""#.utf8) + Array(key.utf8) + Array(#"":1,"type":"ping"}"#.utf8)
        #expect(Self.decodeError(inKey, as: PeerMessage.self)?.code == .malformedFrame)
        let keyAtLimit = Array(#"{""#.utf8) + Array(key.dropLast().utf8) + Array(#"":1,"type":"ping"}"#.utf8)
        #expect(Self.decodeError(keyAtLimit, as: PeerMessage.self) == nil)
    }

    @Test func aStringAtTheLimitDecodesAndOneByteMoreIsRefusedOnTheFastOpsPath() throws {
        let atLimit = Self.opsBody([
            Self.add(seq: 1, title: String(repeating: "é", count: WireCoding.maxStringBytes / 2))
        ])
        #expect(Self.fastPathAccepts(atLimit))
        let decoded = try WireCoding.decode(PeerMessage.self, from: atLimit)
        guard case .ops(let operations) = decoded else {
            Issue.record("not ops: \(decoded)")
            return
        }
        #expect(operations.first?.movie.title?.utf8.count == WireCoding.maxStringBytes)

        let overLimit = Self.opsBody([
            Self.add(seq: 1, title: String(repeating: "x", count: WireCoding.maxStringBytes + 1))
        ])
        #expect(!Self.fastPathAccepts(overLimit))
        let error = Self.decodeError(overLimit, as: PeerMessage.self)
        #expect(error?.code == .malformedFrame)
        #expect(error?.message.contains("longer than 4096 bytes") == true)

        // With an escape in it, the string takes the parser's slower branch: same limit.
        let escapedOver = Self.opsBody([
            Self.add(seq: 1, title: "\"" + String(repeating: "x", count: WireCoding.maxStringBytes - 1))
        ])
        #expect(!Self.fastPathAccepts(escapedOver))
        #expect(Self.decodeError(escapedOver, as: PeerMessage.self)?.code == .malformedFrame)
        let escapedAt = Self.opsBody([
            Self.add(seq: 1, title: "\"" + String(repeating: "x", count: WireCoding.maxStringBytes - 2))
        ])
        #expect(Self.fastPathAccepts(escapedAt))
    }

    @Test func anArrayAtTheElementLimitDecodesAndOneMoreIsRefusedOnTheGeneralPath() throws {
        func ping(elements: Int) -> [UInt8] {
            let zeros = Array(repeating: "0", count: elements).joined(separator: ",")
            return Array(#"{"note":[[],["#.utf8) + Array(zeros.utf8) + Array(#"]],"type":"ping"}"#.utf8)
        }
        #expect(try WireCoding.decode(PeerMessage.self, from: ping(elements: WireCoding.maxArrayElements)) == .ping)
        let error = Self.decodeError(ping(elements: WireCoding.maxArrayElements + 1), as: PeerMessage.self)
        #expect(error?.code == .malformedFrame)
        #expect(error?.message.contains("more than 16384 elements") == true)
        // Commas inside strings are not elements of the array: 5 strings of 4,000 commas are 5 elements.
        let commas = #"""# + String(repeating: ",", count: 4_000) + #"""#
        let strings = Array(repeating: commas, count: 5).joined(separator: ",")
        let inStrings = Array(#"{"note":["#.utf8) + Array(strings.utf8) + Array(#"],"type":"ping"}"#.utf8)
        #expect(try WireCoding.decode(PeerMessage.self, from: inStrings) == .ping)
    }

    @Test func anOpsArrayOverTheElementLimitIsRefusedOnBothPaths() throws {
        let atLimit = Self.opsBody((1...WireCoding.maxArrayElements).map { Self.add(seq: UInt64($0)) })
        #expect(Self.fastPathAccepts(atLimit))
        let overLimit = Self.opsBody((1...WireCoding.maxArrayElements + 1).map { Self.add(seq: UInt64($0)) })
        #expect(!Self.fastPathAccepts(overLimit))
        #expect(Self.decodeError(overLimit, as: PeerMessage.self)?.code == .malformedFrame)
        // The same operations with whitespace: not the fast path's shape, so the general path alone.
        let spaced = Array(String(decoding: overLimit, as: UTF8.self).replacing(",{", with: ", {").utf8)
        #expect(Self.decodeError(spaced, as: PeerMessage.self)?.code == .malformedFrame)
    }

    @Test func aRemovesListOverTheElementLimitIsRefusedOnBothPaths() {
        let atLimit = Self.opsBody([Self.removal(of: WireCoding.maxArrayElements)])
        #expect(Self.fastPathAccepts(atLimit))
        let overLimit = Self.opsBody([Self.removal(of: WireCoding.maxArrayElements + 1)])
        #expect(!Self.fastPathAccepts(overLimit))
        #expect(Self.decodeError(overLimit, as: PeerMessage.self)?.code == .malformedFrame)
    }

    @Test func aFullFrameOfTheSmallestOperationsFitsTheElementLimit() throws {
        // The smallest valid operations: 8-digit origin, one-letter name, no title.
        let origin = PeerID("0123abcd")!
        var builder = OpsFrameBuilder(budget: Frame.maxFrameLength, limit: .max)
        var seq: UInt64 = 0
        var body: [UInt8]?
        while body == nil {
            seq += 1
            body = builder.append(Self.add(seq: seq, origin: origin))
        }
        let frame = try #require(body)
        #expect(frame.count > Frame.maxFrameLength - 100)
        guard case .ops(let operations) = try WireCoding.decode(PeerMessage.self, from: frame) else {
            Issue.record("not ops")
            return
        }
        #expect(operations.count > 10_000)
        #expect(operations.count < WireCoding.maxArrayElements)
    }

    @Test func anErrorMessageIsCutToFitTheStringLimit() throws {
        let long = WireError(.unknownType, "unknown type '" + String(repeating: "\u{1}", count: 5_000) + "'")
        let body = WireCoding.encode(PeerMessage.error(long))
        let decoded = try WireCoding.decode(PeerMessage.self, from: body)
        #expect(decoded == .error(long))
        #expect(long.message.hasSuffix("…"))
        #expect(long.message.hasPrefix("unknown type '\u{1}"))
        let short = "movie 550 is not on the list"
        #expect(WireError(.notListed, short).message == short)
        let exactly = String(repeating: "y", count: WireCoding.maxStringBytes)
        #expect(WireError(.internal, exactly).message == exactly)
        #expect(WireError(.internal, exactly + "y").message.utf8.count <= WireCoding.maxStringBytes)
    }
}
