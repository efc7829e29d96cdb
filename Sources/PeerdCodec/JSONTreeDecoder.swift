/// Decodes a `Decodable` value from a ``JSONTree``, as `JSONDecoder` would from its text. It reads a
/// describe's `details` (``MovieDetails``) from what the fast operation parser scanned, through their
/// one `Codable` form.
package struct JSONTreeDecoder {
    package init() {}

    package func decode<Value: Decodable>(_ type: Value.Type, from value: JSONTree) throws -> Value {
        try Value(from: Decoding(value: value, codingPath: []))
    }

    struct Decoding: Decoder {
        let value: JSONTree
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            guard case .object(let members) = value else { throw mismatch([String: Any].self) }
            return KeyedDecodingContainer(KeyedContainer(members: members, codingPath: codingPath))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard case .array(let elements) = value else { throw mismatch([Any].self) }
            return UnkeyedContainer(elements: elements, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueDecodingContainer {
            SingleValueContainer(value: value, codingPath: codingPath)
        }

        private func mismatch(_ type: Any.Type) -> DecodingError {
            JSONTreeDecoder.mismatch(type, value, codingPath)
        }
    }

    /// `value` as any `Decodable`, through a decoder of its own (primitives have their own overloads
    /// in the containers). `codingPath` is made only when needed: it costs an allocation.
    static func decode<Wanted: Decodable>(
        _ type: Wanted.Type,
        from value: JSONTree,
        at codingPath: () -> [any CodingKey]
    ) throws -> Wanted {
        try Wanted(from: Decoding(value: value, codingPath: codingPath()))
    }

    static func string(_ value: JSONTree, at codingPath: () -> [any CodingKey]) throws -> String {
        guard case .scalar(.string(let text)) = value else { throw mismatch(String.self, value, codingPath()) }
        return text
    }

    static func bool(_ value: JSONTree, at codingPath: () -> [any CodingKey]) throws -> Bool {
        guard case .scalar(.bool(let flag)) = value else { throw mismatch(Bool.self, value, codingPath()) }
        return flag
    }

    static func integer<Integer: FixedWidthInteger>(
        _ type: Integer.Type,
        _ value: JSONTree,
        at codingPath: () -> [any CodingKey]
    ) throws -> Integer {
        let exact: Integer? =
            switch value {
            case .scalar(.integer(let number)): Integer(exactly: number)
            case .scalar(.largeInteger(let number)): Integer(exactly: number)
            default: nil
            }
        guard let exact else { throw mismatch(type, value, codingPath()) }
        return exact
    }

    /// Numbers in operations are integers (``JSONValue``): one is read as a floating-point number
    /// when asked for one.
    static func float<Float: BinaryFloatingPoint>(
        _ type: Float.Type,
        _ value: JSONTree,
        at codingPath: () -> [any CodingKey]
    ) throws -> Float {
        switch value {
        case .scalar(.integer(let number)): return Float(number)
        case .scalar(.largeInteger(let number)): return Float(number)
        default: throw mismatch(type, value, codingPath())
        }
    }

    static func mismatch(_ type: Any.Type, _ value: JSONTree, _ codingPath: [any CodingKey]) -> DecodingError {
        DecodingError.typeMismatch(
            type,
            DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(type), found \(value)")
        )
    }
}
