/// The three containers of ``JSONTreeDecoder``: each primitive read straight from its value (what most
/// fields are), anything else through a decoder of its own.
extension JSONTreeDecoder {
    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [JSONTree.Member]
        let codingPath: [any CodingKey]

        var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }
        func contains(_ key: Key) -> Bool { JSONTree.member(key.stringValue, in: members) != nil }

        private func member(_ key: Key) throws -> JSONTree {
            guard let value = JSONTree.member(key.stringValue, in: members) else {
                let context = DecodingError.Context(codingPath: codingPath, debugDescription: "no \(key.stringValue)")
                throw DecodingError.keyNotFound(key, context)
            }
            return value
        }

        private func path(_ key: Key) -> () -> [any CodingKey] { { codingPath + [key] } }

        func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .scalar(.null) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            try JSONTreeDecoder.bool(try member(key), at: path(key))
        }
        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            try JSONTreeDecoder.string(try member(key), at: path(key))
        }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            try JSONTreeDecoder.float(type, try member(key), at: path(key))
        }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
            try JSONTreeDecoder.float(type, try member(key), at: path(key))
        }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
            try JSONTreeDecoder.integer(type, try member(key), at: path(key))
        }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
            try JSONTreeDecoder.integer(type, try member(key), at: path(key))
        }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
            try JSONTreeDecoder.integer(type, try member(key), at: path(key))
        }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
            try JSONTreeDecoder.integer(type, try member(key), at: path(key))
        }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
            try JSONTreeDecoder.integer(type, try member(key), at: path(key))
        }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
            try JSONTreeDecoder.integer(type, try member(key), at: path(key))
        }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
            try JSONTreeDecoder.integer(type, try member(key), at: path(key))
        }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
            try JSONTreeDecoder.integer(type, try member(key), at: path(key))
        }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
            try JSONTreeDecoder.integer(type, try member(key), at: path(key))
        }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
            try JSONTreeDecoder.integer(type, try member(key), at: path(key))
        }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try JSONTreeDecoder.decode(type, from: try member(key), at: path(key))
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try nestedDecoder(key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try nestedDecoder(key).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            Decoding(
                value: JSONTree.member("super", in: members) ?? .scalar(.null),
                codingPath: codingPath + [SuperKey()]
            )
        }

        func superDecoder(forKey key: Key) throws -> any Decoder { try nestedDecoder(key) }

        private func nestedDecoder(_ key: Key) throws -> Decoding {
            Decoding(value: try member(key), codingPath: codingPath + [key])
        }
    }

    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let elements: [JSONTree]
        let codingPath: [any CodingKey]
        private(set) var currentIndex = 0
        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        init(elements: [JSONTree], codingPath: [any CodingKey]) {
            self.elements = elements
            self.codingPath = codingPath
        }

        /// The next element, read by `read`; the index moves on only when it reads.
        private mutating func next<T>(_ read: (JSONTree, () -> [any CodingKey]) throws -> T) throws -> T {
            let index = currentIndex
            let decoded = try read(try element()) { codingPath + [IndexKey(index)] }
            currentIndex += 1
            return decoded
        }

        private var elementPath: [any CodingKey] { codingPath + [IndexKey(currentIndex)] }

        private func element() throws -> JSONTree {
            guard !isAtEnd else {
                let context = DecodingError.Context(codingPath: elementPath, debugDescription: "the array has ended")
                throw DecodingError.valueNotFound(Any.self, context)
            }
            return elements[currentIndex]
        }

        mutating func decodeNil() throws -> Bool {
            guard try element() == .scalar(.null) else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try next(JSONTreeDecoder.bool) }
        mutating func decode(_ type: String.Type) throws -> String { try next(JSONTreeDecoder.string) }
        mutating func decode(_ type: Double.Type) throws -> Double {
            try next { try JSONTreeDecoder.float(type, $0, at: $1) }
        }
        mutating func decode(_ type: Float.Type) throws -> Float {
            try next { try JSONTreeDecoder.float(type, $0, at: $1) }
        }
        mutating func decode(_ type: Int.Type) throws -> Int {
            try next { try JSONTreeDecoder.integer(type, $0, at: $1) }
        }
        mutating func decode(_ type: Int8.Type) throws -> Int8 {
            try next { try JSONTreeDecoder.integer(type, $0, at: $1) }
        }
        mutating func decode(_ type: Int16.Type) throws -> Int16 {
            try next { try JSONTreeDecoder.integer(type, $0, at: $1) }
        }
        mutating func decode(_ type: Int32.Type) throws -> Int32 {
            try next { try JSONTreeDecoder.integer(type, $0, at: $1) }
        }
        mutating func decode(_ type: Int64.Type) throws -> Int64 {
            try next { try JSONTreeDecoder.integer(type, $0, at: $1) }
        }
        mutating func decode(_ type: UInt.Type) throws -> UInt {
            try next { try JSONTreeDecoder.integer(type, $0, at: $1) }
        }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
            try next { try JSONTreeDecoder.integer(type, $0, at: $1) }
        }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
            try next { try JSONTreeDecoder.integer(type, $0, at: $1) }
        }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
            try next { try JSONTreeDecoder.integer(type, $0, at: $1) }
        }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
            try next { try JSONTreeDecoder.integer(type, $0, at: $1) }
        }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try next { try JSONTreeDecoder.decode(type, from: $0, at: $1) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try nextDecoder().container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try nextDecoder().unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder { try nextDecoder() }

        private mutating func nextDecoder() throws -> Decoding {
            let decoder = Decoding(value: try element(), codingPath: elementPath)
            currentIndex += 1
            return decoder
        }
    }

    struct SingleValueContainer: SingleValueDecodingContainer {
        let value: JSONTree
        let codingPath: [any CodingKey]

        private func path() -> [any CodingKey] { codingPath }

        func decodeNil() -> Bool { value == .scalar(.null) }
        func decode(_ type: Bool.Type) throws -> Bool { try JSONTreeDecoder.bool(value, at: path) }
        func decode(_ type: String.Type) throws -> String { try JSONTreeDecoder.string(value, at: path) }
        func decode(_ type: Double.Type) throws -> Double { try JSONTreeDecoder.float(type, value, at: path) }
        func decode(_ type: Float.Type) throws -> Float { try JSONTreeDecoder.float(type, value, at: path) }
        func decode(_ type: Int.Type) throws -> Int { try JSONTreeDecoder.integer(type, value, at: path) }
        func decode(_ type: Int8.Type) throws -> Int8 { try JSONTreeDecoder.integer(type, value, at: path) }
        func decode(_ type: Int16.Type) throws -> Int16 { try JSONTreeDecoder.integer(type, value, at: path) }
        func decode(_ type: Int32.Type) throws -> Int32 { try JSONTreeDecoder.integer(type, value, at: path) }
        func decode(_ type: Int64.Type) throws -> Int64 { try JSONTreeDecoder.integer(type, value, at: path) }
        func decode(_ type: UInt.Type) throws -> UInt { try JSONTreeDecoder.integer(type, value, at: path) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try JSONTreeDecoder.integer(type, value, at: path) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try JSONTreeDecoder.integer(type, value, at: path) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try JSONTreeDecoder.integer(type, value, at: path) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try JSONTreeDecoder.integer(type, value, at: path) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try JSONTreeDecoder.decode(type, from: value, at: path)
        }
    }
}
