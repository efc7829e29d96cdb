package import NIOCore

/// Framing shared by the peer protocol and the control protocol.
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                    length N (u32, big-endian)                 |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |           N bytes: one UTF-8 JSON object with a "type"        |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// ```
/// `N = 0` and `N > maxFrameLength` are refused from the header alone, before any body is buffered.
package enum Frame {
    /// The largest body either socket accepts: 1 MiB.
    package static let maxFrameLength = 1 << 20
    package static let headerLength = 4

    /// Appends one frame holding `body` to `buffer`.
    package static func write(_ body: some Collection<UInt8>, to buffer: inout ByteBuffer) {
        buffer.writeInteger(UInt32(body.count), endianness: .big)
        buffer.writeBytes(body)
    }

    /// One frame as bytes, for blocking clients that don't use NIO's channels.
    package static func bytes(_ body: [UInt8]) -> [UInt8] {
        let n = UInt32(body.count)
        return [UInt8(n >> 24), UInt8((n >> 16) & 0xff), UInt8((n >> 8) & 0xff), UInt8(n & 0xff)] + body
    }

    /// Reads the length header; throws if it is 0 or above `limit`.
    package static func checkedLength(_ header: UInt32, limit: Int = maxFrameLength) throws(FrameError) -> Int {
        if header == 0 { throw .empty }
        guard header <= limit else { throw .oversized(length: UInt64(header), limit: limit) }
        return Int(header)
    }
}

/// Why a byte stream is not a valid sequence of frames. The connection is closed after any of these.
package enum FrameError: Error, Hashable, Sendable, CustomStringConvertible {
    case empty
    case oversized(length: UInt64, limit: Int)
    /// The stream ended inside a frame.
    case truncated(have: Int, need: Int)

    package var description: String {
        switch self {
        case .empty: "frame length is 0; every frame holds a JSON object"
        case .oversized(let length, let limit): "frame length \(length) is over the limit of \(limit) bytes"
        case .truncated(let have, let need): "connection ended inside a frame (\(have) of \(need) bytes)"
        }
    }

    package var code: ErrorCode {
        switch self {
        case .empty, .truncated: .malformedFrame
        case .oversized: .frameTooLarge
        }
    }
}
