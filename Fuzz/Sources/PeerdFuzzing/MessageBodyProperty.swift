package import PeerdWire

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What must hold for any message body given to `WireCoding.decode`: the input is one frame body
/// (the JSON, without its 4-byte length header; the golden frames are seeded with the header cut off).
///
/// Only the entry points are called, generically (and, for `PeerMessage`, through its own overloads,
/// which hold the fast `ops` path), so fields added later are covered without changing this file.
package enum MessageBodyProperty {
    /// Traps if decoding `body` as `Message` breaks a property; returns normally when it decodes or
    /// throws a `WireError` as it should.
    ///
    /// 1. The fast paths (taken for contiguous bytes) and the general path (`JSONDecoder`, taken for
    ///    bytes without contiguous storage) give the same message, or errors with the same code.
    ///    Not the same message text: with two bad keys in a JSON object, which one is named depends
    ///    on the order of a `Dictionary`, which differs from one decode to the next.
    /// 2. A decoded message re-encodes to a body that decodes to an equal message.
    /// 3. That body is canonical: encoding the message again gives the same bytes, the bytes
    ///    `JSONEncoder` with sorted keys and unescaped slashes writes.
    package static func check(_ type: PeerMessage.Type, body: [UInt8]) {
        check(
            body: body,
            decode: { (bytes) throws(WireError) in try WireCoding.decode(PeerMessage.self, from: bytes) },
            decodeSpread: { (bytes) throws(WireError) in
                try WireCoding.decode(PeerMessage.self, from: bytes.lazy.map { $0 })
            },
            encode: { WireCoding.encode($0) }
        )
    }

    package static func check<Message: Codable & Equatable>(_ type: Message.Type, body: [UInt8]) {
        check(
            body: body,
            decode: { (bytes) throws(WireError) in try WireCoding.decode(Message.self, from: bytes) },
            decodeSpread: { (bytes) throws(WireError) in
                try WireCoding.decode(Message.self, from: bytes.lazy.map { $0 })
            },
            encode: { WireCoding.encode($0) }
        )
    }

    /// The properties, over a message type's entry points: `decode` takes contiguous bytes (the fast
    /// paths), `decodeSpread` the same bytes without contiguous storage (the general path).
    private static func check<Message: Codable & Equatable>(
        body: [UInt8],
        decode: ([UInt8]) throws(WireError) -> Message,
        decodeSpread: ([UInt8]) throws(WireError) -> Message,
        encode: (Message) -> [UInt8]
    ) {
        let fast = Result { () throws(WireError) in try decode(body) }
        let general = Result { () throws(WireError) in try decodeSpread(body) }
        require(sameOutcome(fast, general), "fast path gave \(fast), general path \(general)")
        guard case .success(let message) = fast else { return }

        let encoded = encode(message)
        let again: Message
        do {
            again = try decode(encoded)
        } catch {
            fatalError("re-encoded \(message) as \(text(encoded)), which does not decode: \(error)")
        }
        require(again == message, "\(message) re-encoded as \(text(encoded)) decodes as \(again)")
        require(encode(again) == encoded, "encoding \(message) twice gave different bytes")
        require(referenceEncoding(message) == encoded, "\(text(encoded)) is not what JSONEncoder writes")
    }

    /// Equal messages, or errors with the same code.
    package static func sameOutcome<Message: Equatable>(
        _ one: Result<Message, WireError>,
        _ other: Result<Message, WireError>
    ) -> Bool {
        switch (one, other) {
        case (.success(let a), .success(let b)): a == b
        case (.failure(let a), .failure(let b)): a.code == b.code
        default: false
        }
    }

    static func referenceEncoding(_ message: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try! encoder.encode(message))
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}

/// `precondition`, but with its message also in optimized builds (which the fuzz targets are), so a
/// finding says which property broke.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
