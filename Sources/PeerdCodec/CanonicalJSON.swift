/// The pieces of canonical JSON text (proto/README.md, "JSON encoding rules"): what `JSONEncoder` with
/// `[.sortedKeys, .withoutEscapingSlashes]` writes, appended straight into a byte array.
/// ``OperationJSON`` writes known fields with them and ``JSONValue`` any value, so both agree byte for
/// byte: an operation is hashed and signed in this form (proto/PEER.md, "Signed operations").
///
/// Strings are raw UTF-8 with only `"`, `\` and the control characters below U+0020 escaped
/// (`\b \f \n \r \t`, the others as `\u00xx` with lowercase hex); `/` and non-ASCII are not.
/// Integers are plain decimal. PeerdWire writes a `list` page's rows with them too (`MovieRecordJSON`).
package enum CanonicalJSON {
    package static func append(_ text: StaticString, to buffer: inout [UInt8]) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    package static func appendInteger(_ value: Int, to buffer: inout [UInt8]) {
        appendInteger(Int64(value), to: &buffer)
    }

    package static func appendInteger(_ value: Int64, to buffer: inout [UInt8]) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        appendInteger(value.magnitude, to: &buffer)
    }

    /// Decimal digits, written back to front into room made for them.
    package static func appendInteger(_ value: UInt64, to buffer: inout [UInt8]) {
        let count = integerLength(value)
        buffer.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        buffer.withUnsafeMutableBufferPointer { bytes in
            var index = bytes.count
            var rest = value
            repeat {
                index -= 1
                bytes[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
        }
    }

    /// How many bytes `appendInteger` writes for `value`.
    package static func integerLength(_ value: Int64) -> Int {
        (value < 0 ? 1 : 0) + integerLength(value.magnitude)
    }

    package static func integerLength(_ value: UInt64) -> Int {
        var count = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        return count
    }

    /// How many bytes `appendString` writes for `text`, quotes and escapes included.
    package static func stringLength(_ text: String) -> Int {
        let escapes = text.utf8.withContiguousStorageIfAvailable(escapesLength) ?? escapesLength(text.utf8)
        return 2 + text.utf8.count + escapes
    }

    /// How many bytes the escapes in `utf8` add: one for `\"`, `\\` and `\b \f \n \r \t`, five for `\u00xx`.
    private static func escapesLength(_ utf8: some Sequence<UInt8>) -> Int {
        var length = 0
        for byte in utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C {
            switch byte {
            case 0x22, 0x5C, 0x08, 0x0C, 0x0A, 0x0D, 0x09: length += 1
            default: length += 5
            }
        }
        return length
    }

    /// `"text"` with JSONEncoder's escapes; runs of characters that need none are copied in one piece.
    package static func appendString(_ text: String, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        let copied: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in
            var start = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                appendEscape(byte, to: &buffer)
                start = index + 1
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        if copied == nil {
            for byte in text.utf8 {
                if byte < 0x20 || byte == 0x22 || byte == 0x5C {
                    appendEscape(byte, to: &buffer)
                } else {
                    buffer.append(byte)
                }
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// A finite floating-point number as `JSONEncoder` writes it: its shortest round-trip decimal
    /// (`description`), with a `.0` fraction left off (`8`, `7.5`, `1e+16`).
    package static func appendDouble(_ value: Double, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: text(of: value).utf8)
    }

    /// The text `appendDouble` writes.
    package static func text(of value: Double) -> String {
        precondition(value.isFinite, "JSON has no infinities or NaN")
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    private static func appendEscape(_ byte: UInt8, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x22: buffer.append(UInt8(ascii: "\""))
        case 0x5C: buffer.append(UInt8(ascii: "\\"))
        case 0x08: buffer.append(UInt8(ascii: "b"))
        case 0x0C: buffer.append(UInt8(ascii: "f"))
        case 0x0A: buffer.append(UInt8(ascii: "n"))
        case 0x0D: buffer.append(UInt8(ascii: "r"))
        case 0x09: buffer.append(UInt8(ascii: "t"))
        default:
            let hex: StaticString = "0123456789abcdef"
            buffer.append(UInt8(ascii: "u"))
            buffer.append(UInt8(ascii: "0"))
            buffer.append(UInt8(ascii: "0"))
            hex.withUTF8Buffer { digits in
                buffer.append(digits[Int(byte >> 4)])
                buffer.append(digits[Int(byte & 0xF)])
            }
        }
    }
}
