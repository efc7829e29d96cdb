#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Any JSON value, as an operation may hold it in a field this version has no name for. Such a value
/// is kept, hashed, signed, stored and relayed in canonical form (``appendCanonical(to:)``), so a peer
/// that does not know the field still checks and passes on the operation its origin made
/// (proto/PEER.md, "Operations can grow").
///
/// Numbers in operations are integers (proto/PEER.md): a number with a fraction has no single
/// canonical text that every implementation writes alike, so decoding one fails. An integral number
/// written with a fraction or exponent (`3.0`, `1e3`) is read as the integer, as the rest of the
/// operation's integers are.
package enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    /// An integer above `Int64.max`, up to `UInt64.max` (a seq or a lamport may be that large).
    case largeInteger(UInt64)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The canonical JSON text of this value: object keys sorted by their UTF-8 bytes, no whitespace,
    /// strings and integers as ``CanonicalJSON`` writes them.
    package func appendCanonical(to buffer: inout [UInt8]) {
        switch self {
        case .null: CanonicalJSON.append("null", to: &buffer)
        case .bool(let value): CanonicalJSON.append(value ? "true" : "false", to: &buffer)
        case .integer(let value): CanonicalJSON.appendInteger(value, to: &buffer)
        case .largeInteger(let value): CanonicalJSON.appendInteger(value, to: &buffer)
        case .string(let value): CanonicalJSON.appendString(value, to: &buffer)
        case .array(let values):
            buffer.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                value.appendCanonical(to: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let members):
            buffer.append(UInt8(ascii: "{"))
            for (index, key) in Self.sortedKeys(members).enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                CanonicalJSON.appendString(key, to: &buffer)
                buffer.append(UInt8(ascii: ":"))
                members[key]!.appendCanonical(to: &buffer)
            }
            buffer.append(UInt8(ascii: "}"))
        }
    }

    package var canonical: [UInt8] {
        var buffer: [UInt8] = []
        appendCanonical(to: &buffer)
        return buffer
    }

    /// Keys in the order canonical JSON writes them: by their UTF-8 bytes.
    static func sortedKeys(_ members: [String: JSONValue]) -> [String] {
        members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}

extension JSONValue: Codable {
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(UInt64.self) {
            self = .largeInteger(value)
        } else if (try? container.decode(Double.self)) != nil {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription:
                    "a number that is not an integer from -2^63 to 2^64-1; numbers in operations are integers"
            )
        } else if let values = try Self.ifOfType([JSONValue].self, container) {
            self = .array(values)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// The value decoded as `type`, or nil when it is of another type; an error deeper inside it (a
    /// fraction in an element) is thrown as it is.
    private static func ifOfType<T: Decodable>(_ type: T.Type, _ container: any SingleValueDecodingContainer) throws
        -> T?
    {
        do {
            return try container.decode(type)
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.count == container.codingPath.count
        {
            return nil
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .largeInteger(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let values): try container.encode(values)
        case .object(let members): try container.encode(members)
        }
    }
}
