/// A JSON value whose objects keep their members in a list, in the order they came, rather than
/// hashed: what ``JSONTreeEncoder`` makes of an `Encodable`, ``JSONTreeDecoder`` reads from, and the
/// operation parser scans a describe's `details` into. Objects that small (a dozen members) are
/// quicker to build and search as a list than as a `Dictionary`, whose hashing of every key was most
/// of the cost of coding details through `Codable` (callgrind).
package enum JSONTree: Equatable {
    /// `null`, a boolean, an integer or a string; never an array or object.
    case scalar(JSONValue)
    /// Members with distinct keys.
    case object([Member])
    case array([JSONTree])

    package struct Member: Equatable {
        package var key: String
        package var value: JSONTree
    }

    /// The canonical JSON text (``CanonicalJSON``): members sorted by the UTF-8 bytes of their keys.
    package func appendCanonical(to buffer: inout [UInt8]) {
        switch self {
        case .scalar(let value): value.appendCanonical(to: &buffer)
        case .array(let elements):
            buffer.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                element.appendCanonical(to: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let members):
            buffer.append(UInt8(ascii: "{"))
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (index, member) in sorted.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                CanonicalJSON.appendString(member.key, to: &buffer)
                buffer.append(UInt8(ascii: ":"))
                member.value.appendCanonical(to: &buffer)
            }
            buffer.append(UInt8(ascii: "}"))
        }
    }

    /// The value of the member named `key`, if there is one.
    static func member(_ key: String, in members: [Member]) -> JSONTree? {
        members.first { $0.key == key }?.value
    }

    /// Whether the two are the same JSON value: objects with the same members in any order.
    package func isSameValue(as other: JSONTree) -> Bool {
        switch (self, other) {
        case (.scalar(let left), .scalar(let right)): return left == right
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.isSameValue(as: $1) }
        case (.object(let left), .object(let right)):
            return left.count == right.count
                && left.allSatisfy { member in
                    Self.member(member.key, in: right).map { member.value.isSameValue(as: $0) } ?? false
                }
        default: return false
        }
    }
}
