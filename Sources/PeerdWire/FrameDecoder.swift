package import NIOCore

/// Splits a byte stream into frame bodies (see `Frame`).
///
/// Unlike NIOExtras' `LengthFieldBasedFrameDecoder`, the length is checked against the limit as
/// soon as its 4 header bytes arrive, so an oversized frame is refused before its body is buffered.
package struct FrameDecoder: ByteToMessageDecoder, Sendable {
    package typealias InboundOut = ByteBuffer

    package let limit: Int
    /// Smaller limits for the first frames, in order; `limit` applies once they are used up. Peer
    /// connections start with two small binary admission records (proto/SECURITY.md), so an
    /// untrusted party can make the daemon buffer 64 bytes, not a megabyte.
    private var initialLimits: ArraySlice<Int>

    package init(limit: Int = Frame.maxFrameLength, initialLimits: [Int] = []) {
        self.limit = limit
        self.initialLimits = initialLimits[...]
    }

    package mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let body = try Self.nextFrame(in: &buffer, limit: initialLimits.first ?? limit) else {
            return .needMoreData
        }
        initialLimits = initialLimits.dropFirst()
        context.fireChannelRead(Self.wrapInboundOut(body))
        return .continue
    }

    package mutating func decodeLast(
        context: ChannelHandlerContext,
        buffer: inout ByteBuffer,
        seenEOF: Bool
    ) throws -> DecodingState {
        if try decode(context: context, buffer: &buffer) == .continue { return .continue }
        if buffer.readableBytes > 0 {
            let need = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self).map { Int($0) + 4 } ?? 4
            throw FrameError.truncated(have: buffer.readableBytes, need: need)
        }
        return .needMoreData
    }

    /// Reads one whole frame body from `buffer`, or returns nil (consuming nothing) if it isn't all there.
    package static func nextFrame(in buffer: inout ByteBuffer, limit: Int) throws(FrameError) -> ByteBuffer? {
        guard let header = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self) else { return nil }
        let length = try Frame.checkedLength(header, limit: limit)
        guard buffer.readableBytes >= Frame.headerLength + length else { return nil }
        buffer.moveReaderIndex(forwardBy: Frame.headerLength)
        return buffer.readSlice(length: length)
    }
}

/// Writes each outbound body with its length header.
package struct FrameEncoder: MessageToByteEncoder, Sendable {
    package typealias OutboundIn = ByteBuffer

    package init() {}

    package func encode(data: ByteBuffer, out: inout ByteBuffer) throws {
        Frame.write(data.readableBytesView, to: &out)
    }
}
