/// The three containers of ``JSONTreeEncoder``. Each primitive is stored as it comes (what most
/// fields are); anything else goes through `JSONTreeEncoder.slot`.
extension JSONTreeEncoder {
    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [any CodingKey]

        private func put(_ value: JSONValue, _ key: Key) { node.set(key.stringValue, .tree(.scalar(value))) }
        private func put<I: FixedWidthInteger>(integer: I, _ key: Key) throws {
            node.set(key.stringValue, .tree(try JSONTreeEncoder.integer(integer) { codingPath + [key] }))
        }

        mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
        mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
        mutating func encode(_ value: Double, forKey key: Key) throws {
            throw JSONTreeEncoder.fraction(value) { codingPath + [key] }
        }
        mutating func encode(_ value: Float, forKey key: Key) throws {
            throw JSONTreeEncoder.fraction(value) { codingPath + [key] }
        }
        mutating func encode(_ value: Int, forKey key: Key) throws { try put(integer: value, key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { try put(integer: value, key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { try put(integer: value, key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { try put(integer: value, key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { try put(integer: value, key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { try put(integer: value, key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(integer: value, key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(integer: value, key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(integer: value, key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(integer: value, key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            node.set(key.stringValue, try JSONTreeEncoder.slot(value) { codingPath + [key] })
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            nestedEncoder(key).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            nestedEncoder(key).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { nestedEncoder(SuperKey()) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { nestedEncoder(key) }

        private func nestedEncoder(_ key: some CodingKey) -> Encoding {
            let nested = Node()
            node.set(key.stringValue, .node(nested))
            return Encoding(node: nested, codingPath: codingPath + [key])
        }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]
        var count: Int { node.elements!.count }

        private var elementPath: [any CodingKey] { codingPath + [IndexKey(count)] }
        private func append(_ value: JSONValue) { node.elements!.append(.tree(.scalar(value))) }
        private func append<I: FixedWidthInteger>(integer: I) throws {
            node.elements!.append(.tree(try JSONTreeEncoder.integer(integer) { elementPath }))
        }

        mutating func encodeNil() throws { append(.null) }
        mutating func encode(_ value: Bool) throws { append(.bool(value)) }
        mutating func encode(_ value: String) throws { append(.string(value)) }
        mutating func encode(_ value: Double) throws { throw JSONTreeEncoder.fraction(value) { elementPath } }
        mutating func encode(_ value: Float) throws { throw JSONTreeEncoder.fraction(value) { elementPath } }
        mutating func encode(_ value: Int) throws { try append(integer: value) }
        mutating func encode(_ value: Int8) throws { try append(integer: value) }
        mutating func encode(_ value: Int16) throws { try append(integer: value) }
        mutating func encode(_ value: Int32) throws { try append(integer: value) }
        mutating func encode(_ value: Int64) throws { try append(integer: value) }
        mutating func encode(_ value: UInt) throws { try append(integer: value) }
        mutating func encode(_ value: UInt8) throws { try append(integer: value) }
        mutating func encode(_ value: UInt16) throws { try append(integer: value) }
        mutating func encode(_ value: UInt32) throws { try append(integer: value) }
        mutating func encode(_ value: UInt64) throws { try append(integer: value) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            node.elements!.append(try JSONTreeEncoder.slot(value) { elementPath })
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            nestedEncoder().container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { nestedEncoder().unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { nestedEncoder() }

        private func nestedEncoder() -> Encoding {
            let nested = Node()
            let path = elementPath
            node.elements!.append(.node(nested))
            return Encoding(node: nested, codingPath: path)
        }
    }

    struct SingleValueContainer: SingleValueEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]

        private func set<I: FixedWidthInteger>(integer: I) throws {
            node.single = try JSONTreeEncoder.integer(integer) { codingPath }
        }

        mutating func encodeNil() throws { node.single = .scalar(.null) }
        mutating func encode(_ value: Bool) throws { node.single = .scalar(.bool(value)) }
        mutating func encode(_ value: String) throws { node.single = .scalar(.string(value)) }
        mutating func encode(_ value: Double) throws { throw JSONTreeEncoder.fraction(value) { codingPath } }
        mutating func encode(_ value: Float) throws { throw JSONTreeEncoder.fraction(value) { codingPath } }
        mutating func encode(_ value: Int) throws { try set(integer: value) }
        mutating func encode(_ value: Int8) throws { try set(integer: value) }
        mutating func encode(_ value: Int16) throws { try set(integer: value) }
        mutating func encode(_ value: Int32) throws { try set(integer: value) }
        mutating func encode(_ value: Int64) throws { try set(integer: value) }
        mutating func encode(_ value: UInt) throws { try set(integer: value) }
        mutating func encode(_ value: UInt8) throws { try set(integer: value) }
        mutating func encode(_ value: UInt16) throws { try set(integer: value) }
        mutating func encode(_ value: UInt32) throws { try set(integer: value) }
        mutating func encode(_ value: UInt64) throws { try set(integer: value) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            node.single = try JSONTreeEncoder.slot(value) { codingPath }.tree
        }
    }
}

/// `super`, the key `superEncoder()` and `superDecoder()` use, as in `JSONEncoder`.
struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

/// An array element's place in a coding path.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}
