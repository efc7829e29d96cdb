import NIOCore
import PeerdModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// JSON encoding and decoding of message bodies, with the checks that come before parsing.
public enum WireCoding {
    /// JSON nesting deeper than this is refused before it reaches the parser.
    public static let maxNestingDepth = 16

    /// The body of a message: `JSONEncoder`'s output with sorted keys and unescaped slashes.
    /// An `ops` message is written by `OpsFrameBuilder`, which produces the same bytes much faster.
    public static func encode(_ value: some Encodable) -> [UInt8] {
        if let message = value as? PeerMessage, case .ops(let operations) = message {
            return OpsFrameBuilder.body(for: operations)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every message type encodes; a failure here is a programming error.
        return Array(try! encoder.encode(value))
    }

    public static func encodeBuffer(_ value: some Encodable) -> ByteBuffer {
        ByteBuffer(bytes: encode(value))
    }

    /// Decodes one message body. Every failure becomes a `WireError` a peer can be told about.
    ///
    /// An `ops` message in the shape `OpsFrameBuilder` writes is read by `OperationJSONReader`'s fast
    /// parser, more than ten times faster than `JSONDecoder`; any other body, or one the fast parser
    /// does not accept, takes the general path below, so the result and the errors are the same.
    public static func decode<T: Decodable>(_ type: T.Type, from body: some Collection<UInt8>) throws(WireError) -> T {
        if T.self == PeerMessage.self,
            let message = body.withContiguousStorageIfAvailable({ fastOps(UnsafeRawBufferPointer($0)) }) ?? nil
        {
            return message as! T
        }
        let bytes = Array(body)
        // JSONDecoder checks UTF-8 only in the strings it decodes; bytes in fields it skips must be checked here.
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw WireError(.malformedFrame, "frame body is not valid UTF-8")
        }
        try checkNesting(bytes)
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch let error as WireError {
            throw error
        } catch let error as DecodingError {
            throw WireError(.malformedFrame, describe(error))
        } catch {
            throw WireError(.malformedFrame, "frame body is not valid UTF-8 JSON")
        }
    }

    public static func decode<T: Decodable>(_ type: T.Type, from buffer: ByteBuffer) throws(WireError) -> T {
        try decode(type, from: buffer.readableBytesView)
    }

    /// `{"ops":[…],"type":"ops"}` with every operation in the fast parser's plain shape, or nil.
    /// Whatever the parser accepts is valid UTF-8 and nests 5 levels at most, so the checks the
    /// general path makes first hold too.
    static func fastOps(_ body: UnsafeRawBufferPointer) -> PeerMessage? {
        let prefix = #"{"ops":"#.utf8
        let suffix = #","type":"ops"}"#.utf8
        guard body.count >= prefix.count + suffix.count, body.starts(with: prefix),
            body.reversed().starts(with: suffix.reversed())
        else { return nil }
        let array = UnsafeRawBufferPointer(rebasing: body[prefix.count..<(body.count - suffix.count)])
        var reader = OperationJSONReader()
        return reader.readArray(array).map(PeerMessage.ops)
    }

    /// Refuses bodies whose brackets nest deeper than `maxNestingDepth`, and bodies that are not a
    /// JSON object, with one pass over the bytes (strings skipped) before any parsing.
    static func checkNesting(_ bytes: [UInt8]) throws(WireError) {
        var depth = 0
        var inString = false
        var escaped = false
        var sawObject = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if depth == 0 {
                    guard byte == UInt8(ascii: "{"), !sawObject else {
                        throw WireError(.malformedFrame, "frame body must be one JSON object")
                    }
                    sawObject = true
                }
                depth += 1
                if depth > maxNestingDepth {
                    throw WireError(.malformedFrame, "JSON nests deeper than \(maxNestingDepth) levels")
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        guard sawObject else { throw WireError(.malformedFrame, "frame body must be one JSON object") }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let p = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return p.isEmpty ? "" : " at \(p.hasPrefix(".") ? String(p.dropFirst()) : p)"
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing field '\(key.stringValue)'\(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "wrong type\(path(context)): \(context.debugDescription)"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "frame body is not valid UTF-8 JSON" : "bad value\(path(context)): \(context.debugDescription)"
        @unknown default: return "frame body does not match the protocol"
        }
    }
}
