/// Standard base64 (RFC 4648 §4: `A–Z a–z 0–9 + /`, padded with `=`), as operations carry their
/// `sig`, `prev` and `key`. Decoding is strict so that every byte string has exactly one text form:
/// no whitespace, no missing padding, and the unused bits of the last character must be zero.
/// (`Data(base64Encoded:)` is laxer; both JSON paths use this one.)
package enum Base64 {
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8
    )

    /// `bytes` as base64 text.
    package static func string(_ bytes: some Collection<UInt8>) -> String {
        var text: [UInt8] = []
        append(bytes, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends `bytes` as base64 text to `buffer`.
    package static func append(_ bytes: some Collection<UInt8>, to buffer: inout [UInt8]) {
        buffer.reserveCapacity(buffer.count + (bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let chunk = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            buffer.append(alphabet[Int(chunk >> 18 & 0x3F)])
            buffer.append(alphabet[Int(chunk >> 12 & 0x3F)])
            buffer.append(second == nil ? UInt8(ascii: "=") : alphabet[Int(chunk >> 6 & 0x3F)])
            buffer.append(third == nil ? UInt8(ascii: "=") : alphabet[Int(chunk & 0x3F)])
        }
    }

    /// Whether `text` has the shape of strict base64 of a length in `lengths`: a multiple of four
    /// characters, its padding where padding goes. Its characters are not looked at: for text
    /// whose integrity is known (a checksummed log record), when its bytes are not needed.
    package static func isPlain(_ text: UnsafeRawBufferPointer, decodingTo lengths: ClosedRange<Int>) -> Bool {
        guard text.count % 4 == 0, !text.isEmpty else { return lengths.contains(0) && text.isEmpty }
        let padding =
            text[text.count - 1] == UInt8(ascii: "=") ? (text[text.count - 2] == UInt8(ascii: "=") ? 2 : 1) : 0
        return lengths.contains(text.count / 4 * 3 - padding)
    }

    /// The bytes `text` encodes, or nil if it is not strict base64.
    package static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode(UnsafeRawBufferPointer($0)) }
    }

    /// The bytes `text` encodes, or nil if it is not strict base64.
    package static func decode(_ text: UnsafeRawBufferPointer) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 4 * 3)
        var index = 0
        while index < text.count {
            // Only the last group may end in `=` or `==`.
            var padding = 0
            if index + 4 == text.count, text[index + 3] == UInt8(ascii: "=") {
                padding = text[index + 2] == UInt8(ascii: "=") ? 2 : 1
            }
            var chunk: UInt32 = 0
            for offset in 0..<(4 - padding) {
                guard let value = sextet(text[index + offset]) else { return nil }
                chunk = chunk << 6 | value
            }
            chunk <<= 6 * UInt32(padding)
            bytes.append(UInt8(truncatingIfNeeded: chunk >> 16))
            switch padding {
            case 0:
                bytes.append(UInt8(truncatingIfNeeded: chunk >> 8))
                bytes.append(UInt8(truncatingIfNeeded: chunk))
            case 1:
                guard chunk & 0xFF == 0 else { return nil }
                bytes.append(UInt8(truncatingIfNeeded: chunk >> 8))
            default:
                guard chunk & 0xFFFF == 0 else { return nil }
            }
            index += 4
        }
        return bytes
    }

    private static func sextet(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(byte - UInt8(ascii: "a") + 26)
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0") + 52)
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
