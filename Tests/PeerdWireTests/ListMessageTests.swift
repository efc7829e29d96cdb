import Foundation
import PeerdModel
import Testing

@testable import PeerdWire

/// `list` messages (proto/PEER.md, "How a list travels"): a list's session inside the connection.
@Suite("list messages")
struct ListMessageTests {
    private static let id = ListID("0f1e2d3c4b5a69788796a5b4c3d2e1f0")!
    private static let peer = PeerID("a1b2c3d4e5f60718293a4b5c6d7e8f90")!

    private static func code(decoding body: String) -> ErrorCode? {
        do throws(WireError) {
            _ = try WireCoding.decode(PeerMessage.self, from: Array(body.utf8))
            return nil
        } catch {
            return error.code
        }
    }

    @Test("a list's ops body is what JSONEncoder writes, and the fast path reads it")
    func listOpsMatchJSONEncoder() throws {
        let message = PeerMessage.list(Self.id, .ops(OpsFrameTests.operations(count: 30)))
        let body = WireCoding.encode(message)
        #expect(body == (try OpsFrameTests.jsonEncoderBody(message)))
        #expect(body.withUnsafeBytes { WireCoding.fastOps($0) } == message)
        #expect(try WireCoding.decode(PeerMessage.self, from: body) == message)
        #expect(try JSONDecoder().decode(PeerMessage.self, from: Data(body)) == message)
    }

    @Test("every message a list may carry round-trips inside one")
    func innerMessagesRoundTrip() throws {
        let vector = VersionVector([Self.peer: 3])
        let hello = PeerMessage.Hello(
            peer: Self.peer,
            name: "alice",
            port: 7820,
            vector: vector,
            tree: true,
            lists: true
        )
        let inner: [PeerMessage] = [
            .hello(hello), .ops([]), .have(vector), .prune([Self.peer]), .graft([Self.peer]),
            .error(WireError(.forbidden, "no member of this list lives on your machine any more")),
        ]
        for message in inner.map({ PeerMessage.list(Self.id, $0) }) {
            let body = WireCoding.encode(message)
            #expect(body == (try OpsFrameTests.jsonEncoderBody(message)))
            #expect(try WireCoding.decode(PeerMessage.self, from: body) == message)
        }
        #expect(Set(inner.map(\.type)) == PeerMessage.listTypes)
    }

    @Test(
        "a list carrying anything but a list's message, or no list id, is a malformed frame",
        arguments: [
            #"{"list":"0f1e2d3c4b5a69788796a5b4c3d2e1f0","message":{"type":"ping"},"type":"list"}"#,
            #"{"list":"0f1e2d3c4b5a69788796a5b4c3d2e1f0","message":{"type":"members","members":[]},"type":"list"}"#,
            #"{"list":"0f1e2d3c4b5a69788796a5b4c3d2e1f0","message":{"type":"gossip"},"type":"list"}"#,
            #"{"list":"0f1e2d3c4b5a69788796a5b4c3d2e1f0","type":"list"}"#,
            #"{"list":"0F1E2D3C4B5A69788796A5B4C3D2E1F0","message":{"ops":[],"type":"ops"},"type":"list"}"#,
            #"{"list":"0f1e2d3c4b5a69788796a5b4c3d2e1f0","message":{"list":"0f1e2d3c4b5a69788796a5b4c3d2e1f0","message":{"ops":[],"type":"ops"},"type":"list"},"type":"list"}"#,
        ]
    )
    func refusedInnerMessages(_ body: String) {
        #expect(Self.code(decoding: body) == .malformedFrame, "\(body)")
    }

    @Test("a nested list of ops in the fast path's own shape is refused too")
    func nestedListIsNotFast() {
        let inner = WireCoding.encode(PeerMessage.list(Self.id, .ops(OpsFrameTests.operations(count: 2))))
        let (prefix, suffix) = WireCoding.listEnvelope(Self.id)
        let body = prefix + inner + suffix
        #expect(body.withUnsafeBytes { WireCoding.fastOps($0) } == nil)
        #expect(Self.code(decoding: String(decoding: body, as: UTF8.self)) == .malformedFrame)
    }

    @Test("a list's frames are cut at the budget, envelope and all, and keep every operation in order")
    func builderCutsListFrames() throws {
        let operations = OpsFrameTests.operations(count: 300)
        var builder = OpsFrameBuilder(budget: 4_096, list: Self.id)
        var bodies = operations.compactMap { builder.append($0) }
        bodies += builder.finish().map { [$0] } ?? []
        #expect(bodies.count > 5)
        var received: [PeerdModel.Operation] = []
        for body in bodies {
            #expect(body.count <= 4_096)
            guard case .list(Self.id, .ops(let chunk)) = try WireCoding.decode(PeerMessage.self, from: body) else {
                Issue.record("not a list's ops frame")
                continue
            }
            #expect(body == WireCoding.encode(PeerMessage.list(Self.id, .ops(chunk))))
            received += chunk
        }
        #expect(received == operations)
    }

    @Test("a hello says lists only when asked to, and older hellos decode without it")
    func helloLists() throws {
        let hello = PeerMessage.Hello(peer: Self.peer, name: "a", port: 0, vector: VersionVector(), lists: true)
        #expect(String(decoding: WireCoding.encode(PeerMessage.hello(hello)), as: UTF8.self).contains(#""lists":true"#))
        var older = hello
        older.lists = nil
        let body = WireCoding.encode(PeerMessage.hello(older))
        #expect(!String(decoding: body, as: UTF8.self).contains("lists"))
        #expect(try WireCoding.decode(PeerMessage.self, from: body) == .hello(older))
    }
}
