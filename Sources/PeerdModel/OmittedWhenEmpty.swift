/// A collection that synthesized `Codable` leaves out of the JSON when it is empty, and reads as
/// empty when its key is absent: `genres` in ``MovieDetails/Fields`` (proto/PEER.md: "absent when
/// none"). The containers' overloads below are what synthesized conformances call for such a
/// property, in place of the general `encode(_:forKey:)` and `decode(_:forKey:)`.
@propertyWrapper
package struct OmittedWhenEmpty<Value: RangeReplaceableCollection & Codable>: Codable {
    package var wrappedValue: Value

    package init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    package init(from decoder: any Decoder) throws {
        wrappedValue = try Value(from: decoder)
    }

    package func encode(to encoder: any Encoder) throws {
        try wrappedValue.encode(to: encoder)
    }
}

extension OmittedWhenEmpty: Sendable where Value: Sendable {}
extension OmittedWhenEmpty: Equatable where Value: Equatable {}
extension OmittedWhenEmpty: Hashable where Value: Hashable {}

extension KeyedEncodingContainer {
    package mutating func encode<Value>(_ value: OmittedWhenEmpty<Value>, forKey key: Key) throws {
        guard !value.wrappedValue.isEmpty else { return }
        try encode(value.wrappedValue, forKey: key)
    }
}

extension KeyedDecodingContainer {
    package func decode<Value>(_ type: OmittedWhenEmpty<Value>.Type, forKey key: Key) throws -> OmittedWhenEmpty<Value>
    {
        OmittedWhenEmpty(wrappedValue: try decodeIfPresent(Value.self, forKey: key) ?? Value())
    }
}
