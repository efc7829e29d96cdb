/// Names one of the group's lists (proto/PEER.md, "Lists"): 32 lowercase hex digits, the first half
/// of SHA-256 over its creator's peer id and a nonce the creation carries, so the list's creator is
/// whoever can show that nonce in an operation it signed. The group's own list has none: its
/// operations are the ones every peer held before lists existed.
package struct ListID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    package let rawValue: String

    /// Accepts exactly 32 lowercase hex digits.
    package init?(_ rawValue: String) {
        guard rawValue.utf8.count == 32,
            rawValue.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) })
        else { return nil }
        self.rawValue = rawValue
    }

    /// The first 8 hex digits, for logs and tables.
    package var short: String { String(rawValue.prefix(8)) }

    package var description: String { rawValue }

    package static func < (lhs: ListID, rhs: ListID) -> Bool { lhs.rawValue < rhs.rawValue }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let id = ListID(try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "a list id is 32 lowercase hex digits"
            )
        }
        self = id
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
