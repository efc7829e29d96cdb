import NIOCore
import NIOEmbedded
import NIOTestUtils
import PeerdWire
import Testing

@Suite("FrameDecoder")
struct FrameDecoderTests {
    private static func frame(_ body: String) -> ByteBuffer {
        ByteBuffer(bytes: Frame.bytes(Array(body.utf8)))
    }

    private static func channel(limit: Int = Frame.maxFrameLength) -> EmbeddedChannel {
        EmbeddedChannel(handler: ByteToMessageHandler(FrameDecoder(limit: limit)))
    }

    @Test("it splits frames whether bytes arrive one at a time, a frame at a time or all at once")
    func verifier() throws {
        let large = #"{"type":"ping","pad":""# + String(repeating: "x", count: 3000) + #""}"#
        var two = Self.frame(#"{"type":"ping"}"#)
        two.writeImmutableBuffer(Self.frame(#"{"type":"pong"}"#))
        let pairs: [(ByteBuffer, [ByteBuffer])] = [
            (Self.frame(#"{"type":"ping"}"#), [ByteBuffer(string: #"{"type":"ping"}"#)]),
            (Self.frame("{}"), [ByteBuffer(string: "{}")]),
            (Self.frame("x"), [ByteBuffer(string: "x")]),
            (Self.frame(large), [ByteBuffer(string: large)]),
            (Self.frame(#"{"title":"Amélie 🎬"}"#), [ByteBuffer(string: #"{"title":"Amélie 🎬"}"#)]),
            (two, [ByteBuffer(string: #"{"type":"ping"}"#), ByteBuffer(string: #"{"type":"pong"}"#)]),
        ]
        try ByteToMessageDecoderVerifier.verifyDecoder(inputOutputPairs: pairs) { FrameDecoder() }
    }

    @Test("an oversized length is refused as soon as its 4 header bytes arrive")
    func oversizedHeaderIsRefusedFromTheHeaderAlone() throws {
        let oversized = FrameError.oversized(length: 0xFFFF_FFFF, limit: Frame.maxFrameLength)
        #expect(throws: oversized) {
            try Self.channel().writeInbound(ByteBuffer(bytes: [0xFF, 0xFF, 0xFF, 0xFF]))
        }

        let byteByByte = Self.channel()
        try byteByByte.writeInbound(ByteBuffer(bytes: [0xFF, 0xFF, 0xFF]))
        #expect(throws: oversized) {
            try byteByByte.writeInbound(ByteBuffer(bytes: [0xFF]))
        }
        #expect(FrameError.oversized(length: 0xFFFF_FFFF, limit: Frame.maxFrameLength).code == .frameTooLarge)
    }

    @Test("a length one over the limit is refused and a length at the limit is read")
    func limitIsInclusive() throws {
        let over = Self.channel(limit: 16)
        #expect(throws: FrameError.oversized(length: 17, limit: 16)) {
            try over.writeInbound(ByteBuffer(bytes: [0, 0, 0, 17]))
        }

        let atLimit = Self.channel()
        var header = ByteBuffer()
        header.writeInteger(UInt32(Frame.maxFrameLength))
        try atLimit.writeInbound(header)
        try atLimit.writeInbound(ByteBuffer(repeating: UInt8(ascii: " "), count: Frame.maxFrameLength))
        let read: ByteBuffer? = try atLimit.readInbound()
        #expect(read?.readableBytes == Frame.maxFrameLength)
        #expect(try atLimit.finish().isClean)
    }

    @Test("a zero length is refused")
    func zeroLengthIsRefused() throws {
        let channel = Self.channel()
        #expect(throws: FrameError.empty) {
            try channel.writeInbound(ByteBuffer(bytes: [0, 0, 0, 0]))
        }
        #expect(FrameError.empty.code == .malformedFrame)
    }

    @Test("a stream that ends inside a frame body is truncated")
    func endOfStreamInsideBodyIsTruncated() throws {
        let channel = Self.channel()
        try channel.writeInbound(ByteBuffer(bytes: [0, 0, 0, 10, 0x7B, 0x7D, 0x20]))
        let read: ByteBuffer? = try channel.readInbound()
        #expect(read == nil)
        #expect(throws: FrameError.truncated(have: 7, need: 14)) { try channel.finish() }
        #expect(FrameError.truncated(have: 7, need: 14).code == .malformedFrame)
    }

    @Test("a stream that ends inside a length header is truncated")
    func endOfStreamInsideHeaderIsTruncated() throws {
        let channel = Self.channel()
        try channel.writeInbound(ByteBuffer(bytes: [0, 0]))
        #expect(throws: FrameError.truncated(have: 2, need: 4)) { try channel.finish() }
    }

    @Test("a stream that ends between frames ends cleanly")
    func endOfStreamBetweenFramesIsClean() throws {
        let channel = Self.channel()
        try channel.writeInbound(Self.frame(#"{"type":"ping"}"#))
        let read: ByteBuffer? = try channel.readInbound()
        #expect(read == ByteBuffer(string: #"{"type":"ping"}"#))
        #expect(try channel.finish().isClean)
    }

    @Test("Frame.bytes, Frame.write and FrameEncoder write the same bytes")
    func encodersAgree() throws {
        let body = Array(#"{"type":"pong"}"#.utf8)
        #expect(Frame.bytes(body).prefix(4) == [0, 0, 0, 15])

        var written = ByteBuffer()
        Frame.write(body, to: &written)
        #expect(Array(written.readableBytesView) == Frame.bytes(body))

        let channel = EmbeddedChannel(handler: MessageToByteHandler(FrameEncoder()))
        try channel.writeOutbound(ByteBuffer(bytes: body))
        let encoded: ByteBuffer? = try channel.readOutbound()
        #expect(encoded.map { Array($0.readableBytesView) } == Frame.bytes(body))
    }
}
