package import NIOCore
import PeerdCodec
package import PeerdModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// JSON encoding and decoding of message bodies, with the checks that come before parsing.
package enum WireCoding {
    /// JSON nesting deeper than this is refused before it reaches the parser.
    package static let maxNestingDepth = 16

    /// The longest string, key or value, in bytes as written on the wire between its quotes (an
    /// escape counts as the bytes it is written with). The longest string the protocols carry is a
    /// 300-character title: at most 3,600 bytes even with every character an escaped surrogate pair.
    /// Names are 64 characters, ids and cursors under 120 bytes; error messages peerd writes are cut
    /// to fit (`WireError`).
    package static let maxStringBytes = 4_096

    /// The most elements one JSON array may hold. Every valid operation takes more than 64 bytes,
    /// so a 1 MiB `ops` frame holds fewer than 16,384 of them (about 12,600 of the smallest possible,
    /// 4,000–8,000 of typical 120–300-byte ones); `removes` is at most 10,000 ids and a `list` page
    /// 10,000 rows. What it stops is a frame of tiny elements (`[0,0,0,…]`, half a million in 1 MiB)
    /// that would make the parser build that many values.
    package static let maxArrayElements = 16_384

    /// The body of a message: `JSONEncoder`'s output with sorted keys and unescaped slashes.
    package static func encode(_ value: some Encodable) -> [UInt8] {
        encodeJSON(value)
    }

    /// The body of a control response. A `list` page is written by `MovieRecordJSON`, which
    /// produces the bytes `JSONEncoder` would, much faster.
    package static func encode(_ response: ControlResponse) -> [UInt8] {
        guard case .list(let movies, let total, let next) = response else { return encodeJSON(response) }
        return MovieRecordJSON.listBody(movies: movies, total: total, next: next)
    }

    private static func encodeJSON(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every message type encodes; a failure here is a programming error.
        return Array(try! encoder.encode(value))
    }

    /// The body of a peer message. An `ops` message is written by `OpsFrameBuilder`, which produces
    /// the bytes `JSONEncoder` would, much faster, also inside a `list` message.
    package static func encode(_ message: PeerMessage) -> [UInt8] {
        switch message {
        case .ops(let operations): return OpsFrameBuilder.body(for: operations)
        case .list(let id, let inner):
            let (prefix, suffix) = listEnvelope(id)
            return prefix + encode(inner) + suffix
        default: return encodeJSON(message)
        }
    }

    /// What a `list` message's body holds before and after its inner message's: with its keys
    /// sorted, `{"list":"<id>","message":` and `,"type":"list"}`.
    package static func listEnvelope(_ id: ListID) -> (prefix: [UInt8], suffix: [UInt8]) {
        (Array(#"{"list":""#.utf8) + Array(id.rawValue.utf8) + Array(#"","message":"#.utf8), listSuffix)
    }

    private static let listSuffix = Array(#","type":"list"}"#.utf8)

    package static func encodeBuffer(_ value: some Encodable) -> ByteBuffer {
        ByteBuffer(bytes: encode(value))
    }

    package static func encodeBuffer(_ message: PeerMessage) -> ByteBuffer {
        ByteBuffer(bytes: encode(message))
    }

    package static func encodeBuffer(_ response: ControlResponse) -> ByteBuffer {
        ByteBuffer(bytes: encode(response))
    }

    /// Decodes one message body. Every failure becomes a `WireError` a peer can be told about.
    package static func decode<T: Decodable>(_ type: T.Type, from body: some Collection<UInt8>) throws(WireError) -> T {
        try decodeJSON(type, from: body)
    }

    private static func decodeJSON<T: Decodable>(_ type: T.Type, from body: some Collection<UInt8>) throws(WireError)
        -> T
    {
        let bytes = Array(body)
        // JSONDecoder checks UTF-8 only in the strings it decodes; bytes in fields it skips must be checked here.
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw WireError(.malformedFrame, "frame body is not valid UTF-8")
        }
        try checkStructure(bytes)
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

    /// Decodes one peer message. An `ops` message in the shape `OpsFrameBuilder` writes is read by
    /// `OperationJSONReader`'s fast parser, more than ten times faster than `JSONDecoder`; any other
    /// body, or one the fast parser does not accept, takes the general path, so the result and the
    /// errors are the same.
    package static func decode(_ type: PeerMessage.Type, from body: some Collection<UInt8>) throws(WireError)
        -> PeerMessage
    {
        if let message = body.withContiguousStorageIfAvailable({ fastOps(UnsafeRawBufferPointer($0)) }) ?? nil {
            return message
        }
        return try decodeJSON(type, from: body)
    }

    /// Decodes one control response. A `list` page in the shape `MovieRecordJSON` writes is read by
    /// ``ListPageReader``, much faster than `JSONDecoder`; any other body, or one that reader does not
    /// take, takes the general path, so the result and the errors are the same.
    package static func decode(_ type: ControlResponse.Type, from body: some Collection<UInt8>) throws(WireError)
        -> ControlResponse
    {
        let page = body.withContiguousStorageIfAvailable {
            ListPageReader.read(
                UnsafeRawBufferPointer($0),
                maxStringBytes: maxStringBytes,
                maxArrayElements: maxArrayElements
            )
        }
        if let page = page ?? nil { return page }
        return try decodeJSON(type, from: body)
    }

    package static func decode<T: Decodable>(_ type: T.Type, from buffer: ByteBuffer) throws(WireError) -> T {
        try decode(type, from: buffer.readableBytesView)
    }

    package static func decode(_ type: PeerMessage.Type, from buffer: ByteBuffer) throws(WireError) -> PeerMessage {
        try decode(type, from: buffer.readableBytesView)
    }

    /// `{"ops":[…],"type":"ops"}` with every operation in the fast parser's plain shape, or nil;
    /// the same wrapped in a `list` message as ``listEnvelope(_:)`` writes it.
    /// Whatever the parser accepts is valid UTF-8, nests 8 levels at most (9 in a `list`) and keeps
    /// to the string and array limits, so the checks the general path makes first hold too; what
    /// breaks a limit is left to the general path, which refuses it with the same error.
    static func fastOps(_ body: UnsafeRawBufferPointer) -> PeerMessage? {
        if let (id, inner) = listed(body) { return plainOps(inner).map { .list(id, .ops($0)) } }
        return plainOps(body).map(PeerMessage.ops)
    }

    /// The operations of `{"ops":[…],"type":"ops"}` in the fast parser's plain shape, or nil.
    private static func plainOps(_ body: UnsafeRawBufferPointer) -> [Operation]? {
        let prefix = #"{"ops":"#.utf8
        let suffix = #","type":"ops"}"#.utf8
        guard body.count >= prefix.count + suffix.count, body.starts(with: prefix),
            body.reversed().starts(with: suffix.reversed())
        else { return nil }
        let array = UnsafeRawBufferPointer(rebasing: body[prefix.count..<(body.count - suffix.count)])
        var reader = OperationJSONReader(maxStringBytes: maxStringBytes, maxArrayElements: maxArrayElements)
        return reader.readArray(array)
    }

    /// The list id and inner message of a body in the shape ``listEnvelope(_:)`` writes, or nil.
    private static func listed(_ body: UnsafeRawBufferPointer) -> (ListID, UnsafeRawBufferPointer)? {
        let head = #"{"list":""#.utf8, middle = #"","message":"#.utf8
        let idEnd = head.count + 32
        guard body.count > idEnd + middle.count + listSuffix.count, body.starts(with: head),
            body[idEnd...].starts(with: middle), body.reversed().starts(with: listSuffix.reversed()),
            let id = ListID(String(decoding: body[head.count..<idEnd], as: UTF8.self))
        else { return nil }
        return (id, UnsafeRawBufferPointer(rebasing: body[(idEnd + middle.count)..<(body.count - listSuffix.count)]))
    }

    /// Refuses, with one pass over the bytes before any parsing, a body that is not one JSON object,
    /// that nests deeper than `maxNestingDepth`, or that holds a string (key or value) over
    /// `maxStringBytes` or an array of more than `maxArrayElements` elements.
    ///
    /// Elements are counted by the commas directly inside an array: n elements have n - 1 commas in
    /// valid JSON, and invalid JSON is refused by the parser anyway.
    static func checkStructure(_ bytes: [UInt8]) throws(WireError) {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var depth = 0
        var inString = false
        var escaped = false
        var stringStart = 0
        var sawObject = false
        // For the container open at each depth: the commas seen directly in it, or -1 for an object.
        var commas = [Int](repeating: -1, count: maxNestingDepth + 1)
        for index in bytes.indices {
            let byte = bytes[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == backslash {
                    escaped = true
                } else if byte == quote {
                    inString = false
                    guard index - stringStart <= maxStringBytes else {
                        throw WireError(.malformedFrame, "a JSON string is longer than \(maxStringBytes) bytes")
                    }
                }
                continue
            }
            switch byte {
            case quote:
                inString = true
                stringStart = index + 1
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
                commas[depth] = byte == UInt8(ascii: "[") ? 0 : -1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard depth > 0 else { throw WireError(.malformedFrame, "frame body must be one JSON object") }
                depth -= 1
            case UInt8(ascii: ","):
                guard depth > 0, commas[depth] >= 0 else { break }
                commas[depth] += 1
                if commas[depth] >= maxArrayElements {
                    throw WireError(.malformedFrame, "a JSON array holds more than \(maxArrayElements) elements")
                }
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
