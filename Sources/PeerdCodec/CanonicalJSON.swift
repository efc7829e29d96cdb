/// The pieces of canonical JSON text (proto/README.md, "JSON encoding rules"): what `JSONEncoder` with
/// `[.sortedKeys, .withoutEscapingSlashes]` writes, appended straight into a byte array.
/// ``OperationJSON`` writes known fields with them and ``JSONValue`` any value, so both agree byte for
/// byte: an operation is hashed and signed in this form (proto/PEER.md, "Signed operations").
///
/// Strings are raw UTF-8 with only `"`, `\` and the control characters below U+0020 escaped
/// (`\b \f \n \r \t`, the others as `\u00xx` with lowercase hex); `/` and non-ASCII are not.
/// Integers are plain decimal.
enum CanonicalJSON {
    static func append(_ text: StaticString, to buffer: inout [UInt8]) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    static func appendInteger(_ value: Int, to buffer: inout [UInt8]) {
        appendInteger(Int64(value), to: &buffer)
    }

    static func appendInteger(_ value: Int64, to buffer: inout [UInt8]) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        appendInteger(value.magnitude, to: &buffer)
    }

    /// Decimal digits, written back to front into room made for them.
    static func appendInteger(_ value: UInt64, to buffer: inout [UInt8]) {
        var count = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            count += 1
        }
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

    /// `"text"` with JSONEncoder's escapes; runs of characters that need none are copied in one piece.
    static func appendString(_ text: String, to buffer: inout [UInt8]) {
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
