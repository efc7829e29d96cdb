import PeerdModel

/// Writing a kept canonical form back out, whole or without its signature.
extension VerbatimJSON {
    /// Appends the canonical JSON, or without its top-level `sig` member (what a signature covers).
    func append(to buffer: inout [UInt8], includingSig: Bool) {
        guard !includingSig, let sig = sigMember else {
            buffer.append(contentsOf: bytes)
            return
        }
        buffer.append(contentsOf: bytes[..<sig.lowerBound])
        buffer.append(contentsOf: bytes[sig.upperBound...])
    }

    /// Where `,"sig":"…"` is among the top-level members. Canonical JSON has no whitespace, `sig` is
    /// never the first member (`at` sorts before it), and its value is a base64 string; a `"sig"` key
    /// nested deeper, or text inside a string, is skipped.
    var sigMember: Range<Int>? {
        let key = Array(#","sig":""#.utf8)
        var depth = 0
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index = Self.end(ofStringAt: index, in: bytes)
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            case UInt8(ascii: ","):
                if depth == 1, bytes[index...].starts(with: key) {
                    let valueStart = index + key.count - 1
                    return index..<Self.end(ofStringAt: valueStart, in: bytes)
                }
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// The index just past the string whose opening quote is at `start`.
    private static func end(ofStringAt start: Int, in bytes: [UInt8]) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return bytes.count
    }
}
