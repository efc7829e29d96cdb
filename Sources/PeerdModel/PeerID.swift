/// The identity of one replica: who originated an operation, and who is on the other end of a session.
///
/// On the wire it is a lowercase hex string of 32 characters (128 random bits, made when a state
/// directory is first used). A reset state directory gets a fresh id, so `(origin, seq)` pairs are
/// never reused.
package struct PeerID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    package let rawValue: String

    /// Accepts 8 to 64 lowercase hex digits; anything else is not a peer id.
    package init?(_ rawValue: String) {
        guard (8...64).contains(rawValue.utf8.count),
            rawValue.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) })
        else { return nil }
        self.rawValue = rawValue
    }

    /// A fresh random id.
    package static func random() -> PeerID {
        var generator = SystemRandomNumberGenerator()
        let hex = (0..<16).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte, radix: 16).leftPadded(to: 2)
        }
        return PeerID(hex.joined())!
    }

    /// The first 8 hex digits: enough to tell peers apart in a table.
    package var short: String { String(rawValue.prefix(8)) }

    package var description: String { rawValue }

    package static func < (lhs: PeerID, rhs: PeerID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The id's bytes, as they are: ids are ASCII hex (``init(_:)``), so equal ids have equal bytes.
    /// Hashing the `String` instead costs three times as much (it hashes Unicode scalars, in a form
    /// that canonically equivalent strings share), and ids are the keys of the replica's hottest
    /// dictionaries: a fifth of a cold start's replay went to hashing them (perf).
    package func hash(into hasher: inout Hasher) {
        var raw = rawValue
        raw.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode(String.self)
        guard let id = PeerID(raw) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "a peer id is 8 to 64 lowercase hex digits"
            )
        }
        self = id
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
