/// The canonical JSON of an operation that holds what this version does not know: a field it has no
/// name for (at any depth), or a kind (`op`) it does not know. The operation is hashed, signed,
/// stored and relayed in this form, byte for byte as its origin made it, so a peer of an older version
/// verifies and passes on what a newer one wrote (proto/PEER.md, "Operations can grow").
///
/// Operations this version knows entirely carry none: their canonical form is written from their
/// fields (``OperationJSON``), which keeps the common case small and fast.
public struct VerbatimJSON: Hashable, Sendable {
    /// The canonical JSON, `sig` included.
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

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
