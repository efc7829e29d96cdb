import Foundation
import NIOCore
import PeerdWire
import Testing

/// Replays every input in Fuzz/regressions/ through the decoders the fuzz targets exercise: crashes
/// libFuzzer found, and the nastiest inputs crafted by hand. A trap fails the whole run, so each
/// input that gets here without one has decoded or been refused with a `FrameError` or `WireError`.
@Suite("Fuzz regression inputs in Fuzz/regressions")
struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // PeerdWireTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("Fuzz/regressions")

    /// `target/name` for every file in the directory of each fuzz target.
    static func inputs(_ target: String) -> [String] {
        let names = try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(target).path)
        return (names ?? []).filter { !$0.hasPrefix(".") }.sorted().map { "\(target)/\($0)" }
    }

    static func bytes(_ input: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(input)))
    }

    @Test("every fuzz target has regression inputs")
    func everyTargetHasInputs() {
        for target in ["frame", "peer-message", "control-request"] {
            #expect(!Self.inputs(target).isEmpty, "no inputs under \(Self.directory.path)/\(target)")
        }
    }

    @Test("a frame stream regression splits into bodies that re-frame to the same bytes", arguments: inputs("frame"))
    func frameStream(_ input: String) throws {
        let bytes = try Self.bytes(input)
        var buffer = ByteBuffer(bytes: bytes)
        var reframed: [UInt8] = []
        do {
            while let body = try FrameDecoder.nextFrame(in: &buffer, limit: Frame.maxFrameLength) {
                reframed += Frame.bytes(Array(body.readableBytesView))
                _ = try? WireCoding.decode(PeerMessage.self, from: body)
                _ = try? WireCoding.decode(ControlRequest.self, from: body)
            }
        } catch {
            #expect(buffer.readerIndex == reframed.count, "a refused frame consumed bytes: \(error)")
        }
        #expect(reframed == Array(bytes.prefix(reframed.count)))
    }

    @Test("a peer message regression decodes and round-trips, or is refused", arguments: inputs("peer-message"))
    func peerMessage(_ input: String) throws {
        try Self.expectRoundTripOrRefusal(PeerMessage.self, body: try Self.bytes(input))
    }

    @Test("a control request regression decodes and round-trips, or is refused", arguments: inputs("control-request"))
    func controlRequest(_ input: String) throws {
        try Self.expectRoundTripOrRefusal(ControlRequest.self, body: try Self.bytes(input))
    }

    /// The properties the fuzz targets check (Fuzz/Sources/PeerdFuzzing/MessageBodyProperty.swift),
    /// as expectations: the fast and the general decoding path agree (on the error code when they
    /// refuse), and a decoded message re-encodes to a body that decodes to an equal message.
    static func expectRoundTripOrRefusal(_ type: PeerMessage.Type, body: [UInt8]) throws {
        try expectRoundTripOrRefusal(
            body: body,
            decode: { (bytes) throws(WireError) in try WireCoding.decode(PeerMessage.self, from: bytes) },
            decodeSpread: { (bytes) throws(WireError) in
                try WireCoding.decode(PeerMessage.self, from: bytes.lazy.map { $0 })
            },
            encode: { WireCoding.encode($0) }
        )
    }

    static func expectRoundTripOrRefusal<Message: Codable & Equatable>(_ type: Message.Type, body: [UInt8]) throws {
        try expectRoundTripOrRefusal(
            body: body,
            decode: { (bytes) throws(WireError) in try WireCoding.decode(Message.self, from: bytes) },
            decodeSpread: { (bytes) throws(WireError) in
                try WireCoding.decode(Message.self, from: bytes.lazy.map { $0 })
            },
            encode: { WireCoding.encode($0) }
        )
    }

    private static func expectRoundTripOrRefusal<Message: Codable & Equatable>(
        body: [UInt8],
        decode: ([UInt8]) throws(WireError) -> Message,
        decodeSpread: ([UInt8]) throws(WireError) -> Message,
        encode: (Message) -> [UInt8]
    ) throws {
        let fast = Result { () throws(WireError) in try decode(body) }
        let general = Result { () throws(WireError) in try decodeSpread(body) }
        switch (fast, general) {
        case (.success(let a), .success(let b)): #expect(a == b)
        case (.failure(let a), .failure(let b)): #expect(a.code == b.code)
        default: Issue.record("fast path gave \(fast), general path \(general)")
        }
        guard case .success(let message) = fast else { return }
        #expect(try decode(encode(message)) == message)
    }
}
