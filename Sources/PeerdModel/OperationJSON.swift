/// The JSON of an ``Operation``, written by hand: what the wire's `ops` frames and the operation log's
/// records hold. `Operation`'s `Codable` conformance stays the reference; this writer produces exactly
/// the bytes `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` produces for it (the tests
/// compare the two on generated operations), and ``OperationJSONReader`` reads them back.
///
/// Why by hand: `JSONEncoder` costs about 61,000 instructions (7 µs) per operation, boxing every
/// value and then sorting keys; catching up 100,000 operations encoded each one twice (the sender's
/// frame, the receiver's log record): a quarter of the receiver's CPU time and nearly all of the
/// sender's (perf). This writer appends straight into a byte array: about 3,700 instructions
/// (0.3–0.5 µs) per operation (callgrind and wall clock on the benchmark machine).
///
/// The canonical form: keys sorted (`at, by, key, lamport, movie, op, origin, prev, removes, seq,
/// sig`; `id, title, year`; `origin, seq`), no whitespace, `title` and `year` omitted when nil,
/// `removes` written for a removal and wherever it is not empty (an add with one is invalid, and
/// must reach `Replica` as it came to be refused), `key`, `prev` and `sig` only when present (as strict
/// padded base64, ``Base64``), integers in plain decimal, strings as UTF-8 with `"` `\` and the
/// control characters escaped (`\b \f \n \r \t`, the others as `\u00xx`) and nothing else — `/`
/// included. It is what operations are hashed and signed in (proto/PEER.md, "Signed operations").
public enum OperationJSON {
    /// The JSON of `operation` in canonical form.
    public static func encode(_ operation: Operation) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(192)
        append(operation, to: &bytes)
        return bytes
    }

    /// Appends the JSON of `operation` in canonical form to `buffer`; without its `sig` when
    /// `includingSig` is false (what the signature is made over). `sig` sorts last, so the form
    /// without it is the form with it cut before `,"sig":` and closed.
    public static func append(_ operation: Operation, to buffer: inout [UInt8], includingSig: Bool = true) {
        append(#"{"at":"#, to: &buffer)
        appendInteger(operation.at, to: &buffer)
        append(#","by":"#, to: &buffer)
        appendString(operation.by, to: &buffer)
        if let key = operation.proof.key {
            append(#","key":""#, to: &buffer)
            Base64.append(key, to: &buffer)
            buffer.append(UInt8(ascii: "\""))
        }
        append(#","lamport":"#, to: &buffer)
        appendInteger(operation.lamport, to: &buffer)
        append(#","movie":{"id":"#, to: &buffer)
        appendInteger(operation.movie.id.rawValue, to: &buffer)
        if let title = operation.movie.title {
            append(#","title":"#, to: &buffer)
            appendString(title, to: &buffer)
        }
        if let year = operation.movie.year {
            append(#","year":"#, to: &buffer)
            appendInteger(year, to: &buffer)
        }
        append(#"},"op":"#, to: &buffer)
        append(operation.kind == .add ? #""add""# : #""remove""#, to: &buffer)
        append(#","origin":"#, to: &buffer)
        appendString(operation.id.origin.rawValue, to: &buffer)
        if let prev = operation.proof.prev {
            append(#","prev":""#, to: &buffer)
            Base64.append(prev, to: &buffer)
            buffer.append(UInt8(ascii: "\""))
        }
        if operation.kind == .remove || !operation.removes.isEmpty {
            append(#","removes":["#, to: &buffer)
            for (index, id) in operation.removes.enumerated() {
                append(index == 0 ? #"{"origin":"# : #",{"origin":"#, to: &buffer)
                appendString(id.origin.rawValue, to: &buffer)
                append(#","seq":"#, to: &buffer)
                appendInteger(id.seq, to: &buffer)
                buffer.append(UInt8(ascii: "}"))
            }
            buffer.append(UInt8(ascii: "]"))
        }
        append(#","seq":"#, to: &buffer)
        appendInteger(operation.id.seq, to: &buffer)
        if includingSig, let sig = operation.proof.sig {
            append(#","sig":""#, to: &buffer)
            Base64.append(sig, to: &buffer)
            buffer.append(UInt8(ascii: "\""))
        }
        buffer.append(UInt8(ascii: "}"))
    }

    private static func append(_ text: StaticString, to buffer: inout [UInt8]) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    private static func appendInteger(_ value: Int, to buffer: inout [UInt8]) {
        appendInteger(Int64(value), to: &buffer)
    }

    private static func appendInteger(_ value: Int64, to buffer: inout [UInt8]) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        appendInteger(value.magnitude, to: &buffer)
    }

    /// Decimal digits, written back to front into room made for them.
    private static func appendInteger(_ value: UInt64, to buffer: inout [UInt8]) {
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
    private static func appendString(_ text: String, to buffer: inout [UInt8]) {
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
