import Foundation
import NIOCore
import PeerdModel
import PeerdWire
import Testing

/// `ops` frames are written by `OpsFrameBuilder` and read by a fast path in `WireCoding.decode`;
/// both must agree byte for byte and value for value with the `Codable` path they replace.
@Suite("ops frames")
struct OpsFrameTests {
    private static let origins = [PeerID("a1b2c3d4e5f60718293a4b5c6d7e8f90")!, PeerID("0123456789abcdef")!]

    /// `count` operations with titles and names full of characters JSON escapes, and removals.
    static func operations(count: Int) -> [PeerdModel.Operation] {
        let pieces = ["a", "/", "\"", "\\", "\n", "\u{1}", "é", "🎬", " ", "\u{7F}"]
        return (1...count).map { n in
            let text = (0..<(n % 7 + 1)).map { pieces[($0 * 7 + n) % pieces.count] }.joined()
            let origin = origins[n % 2]
            return PeerdModel.Operation(
                id: OperationID(origin: origin, seq: UInt64(n)),
                lamport: UInt64(n) * 1_000_003,
                at: n % 3 == 0 ? -Int64(n) : Int64(n) << 40,
                by: "peer " + text,
                kind: n % 4 == 0 ? .remove : .add,
                movie: Movie(id: MovieID(n)!, title: n % 5 == 0 ? nil : text, year: n % 2 == 0 ? 1999 : nil),
                removes: n % 4 == 0
                    ? (1..<min(n, 4)).map { OperationID(origin: origins[$0 % 2], seq: UInt64($0)) } : [],
                proof: OperationProof(
                    sig: (0..<64).map { UInt8(truncatingIfNeeded: $0 * 37 + n) },
                    prev: n == 1 ? nil : (0..<32).map { UInt8(truncatingIfNeeded: $0 * 251 + n) },
                    key: n == 1 ? (0..<91).map { UInt8(truncatingIfNeeded: $0 + n) } : nil
                )
            )
        }
    }

    static func jsonEncoderBody(_ message: PeerMessage) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(message))
    }

    @Test("an ops body is what JSONEncoder writes for the message")
    func bodyMatchesJSONEncoder() throws {
        for count in [1, 2, 50] {
            let message = PeerMessage.ops(Self.operations(count: count))
            #expect(WireCoding.encode(message) == (try Self.jsonEncoderBody(message)))
        }
        #expect(WireCoding.encode(PeerMessage.ops([])) == (try Self.jsonEncoderBody(.ops([]))))
    }

    @Test("the builder cuts frames by size and keeps every operation in order")
    func builderCutsBySize() throws {
        let operations = Self.operations(count: 300)
        var builder = OpsFrameBuilder(budget: 4_096)
        var bodies: [[UInt8]] = []
        for operation in operations {
            if let body = builder.append(operation) { bodies.append(body) }
        }
        bodies += builder.finish().map { [$0] } ?? []
        #expect(builder.finish() == nil)
        #expect(bodies.count > 5)
        var received: [PeerdModel.Operation] = []
        for body in bodies {
            #expect(body.count <= 4_096)
            guard case .ops(let chunk) = try WireCoding.decode(PeerMessage.self, from: body) else {
                Issue.record("not an ops frame")
                continue
            }
            #expect(body == (try Self.jsonEncoderBody(.ops(chunk))))
            received += chunk
        }
        #expect(received == operations)
    }

    @Test("the builder puts at most 500 operations in a frame, as the protocol says")
    func builderCutsByCount() throws {
        let operations = Self.operations(count: 1_234)
        var builder = OpsFrameBuilder(budget: .max)
        var bodies = operations.compactMap { builder.append($0) }
        bodies += builder.finish().map { [$0] } ?? []
        let counts = try bodies.map { body -> Int in
            guard case .ops(let chunk) = try WireCoding.decode(PeerMessage.self, from: body) else { return 0 }
            return chunk.count
        }
        #expect(OpsFrameBuilder.maxOperations == 500)
        #expect(counts == [500, 500, 234])
    }

    @Test("an operation larger than the budget gets a frame of its own")
    func oversizedOperationStandsAlone() throws {
        let operations = Self.operations(count: 3)
        var builder = OpsFrameBuilder(budget: 10)
        let closed = operations.compactMap { builder.append($0) } + [builder.finish()].compactMap { $0 }
        #expect(closed.count == 3)
        #expect(closed == operations.map { WireCoding.encode(PeerMessage.ops([$0])) })
    }

    @Test("the fast path and JSONDecoder read ops frames alike, in any layout")
    func fastPathAgreesWithJSONDecoder() throws {
        let operations = Self.operations(count: 20)
        let canonical = String(decoding: WireCoding.encode(PeerMessage.ops(operations)), as: UTF8.self)
        let layouts = [
            canonical,
            canonical.replacingOccurrences(of: #"{"ops":["#, with: #"{"ops": [ "#),
            canonical.replacingOccurrences(of: #"],"type":"ops"}"#, with: #"] ,"type":"ops"}"#),
            #"{"type":"ops","ops":"# + canonical.dropFirst(#"{"ops":"#.count).dropLast(#","type":"ops"}"#.count) + "}",
            canonical.replacingOccurrences(of: #","seq":"#, with: #", "seq" : "#),
        ]
        for layout in layouts {
            let body = Array(layout.utf8)
            #expect(try WireCoding.decode(PeerMessage.self, from: body) == .ops(operations))
            #expect(try JSONDecoder().decode(PeerMessage.self, from: Data(body)) == .ops(operations))
            #expect(try WireCoding.decode(PeerMessage.self, from: ByteBuffer(bytes: body)) == .ops(operations))
        }
    }

    @Test(
        "an ops frame the fast path refuses gets the general path's error",
        arguments: [
            #"{"ops":[{"at":1,"by":"x","lamport":1,"movie":{"id":1},"op":"add","origin":"NOT HEX","seq":1}],"type":"ops"}"#,
            #"{"ops":[{"at":1,"by":"x","lamport":1,"movie":{"id":0},"op":"add","origin":"0123456789abcdef","seq":1}],"type":"ops"}"#,
            #"{"ops":[{"at":1,"by":"x","lamport":1,"movie":{"id":1},"op":"add","seq":1}],"type":"ops"}"#,
            #"{"ops":[1],"type":"ops"}"#,
            #"{"ops":[],"type":"ops"}{"ops":[],"type":"ops"}"#,
        ]
    )
    func refusedFramesFailAsBefore(_ body: String) {
        do throws(WireError) {
            _ = try WireCoding.decode(PeerMessage.self, from: Array(body.utf8))
            Issue.record("decoded \(body)")
        } catch {
            #expect(error.code == .malformedFrame)
        }
    }

    @Test("bytes that are not UTF-8 inside an ops frame are refused")
    func invalidUTF8InOpsFrame() {
        let body =
            Array(#"{"ops":[{"at":1,"by":""#.utf8) + [0xFF]
            + Array(
                #"","lamport":1,"movie":{"id":1},"op":"add","origin":"0123456789abcdef","seq":1}],"type":"ops"}"#.utf8
            )
        #expect(throws: WireError.self) { try WireCoding.decode(PeerMessage.self, from: body) }
    }
}
