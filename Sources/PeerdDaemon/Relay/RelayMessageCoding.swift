import NIOCore
import PeerdRelay

/// Relay messages out of a protocol-mode connection's bytes.
///
/// ```
/// +----------------+----------------+----------------+--------------------------+
/// | magic 9E79BC40 | type (4 bytes) | length (4)     | body: `length` bytes, XDR |
/// +----------------+----------------+----------------+--------------------------+
/// ```
///
/// A length over ``RelayMessage/maxBody`` (1 KiB) is refused from the header, before its body is
/// waited for, so a relay cannot make this side buffer more than one small message.
struct RelayMessageDecoder: ByteToMessageDecoder {
    typealias InboundOut = RelayMessage

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let head = buffer.getBytes(at: buffer.readerIndex, length: RelayMessage.headerSize) else {
            return .needMoreData
        }
        let header = try RelayMessage.header(head)
        guard buffer.readableBytes >= RelayMessage.headerSize + header.length else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: RelayMessage.headerSize)
        let body = buffer.readBytes(length: header.length) ?? []
        context.fireChannelRead(wrapInboundOut(try RelayMessage(type: header.type, body: body)))
        return .continue
    }

    mutating func decodeLast(
        context: ChannelHandlerContext,
        buffer: inout ByteBuffer,
        seenEOF: Bool
    ) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}

/// Relay messages into bytes, header and all.
struct RelayMessageEncoder: MessageToByteEncoder {
    typealias OutboundIn = RelayMessage

    func encode(data: RelayMessage, out: inout ByteBuffer) throws {
        out.writeBytes(data.encoded)
    }
}
