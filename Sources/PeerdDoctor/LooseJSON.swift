/// Any JSON value, fractions allowed: what `nft -j` prints is read through this. (PeerdCodec's
/// `JSONValue` refuses fractions on purpose, for operations; a firewall's counters owe us nothing.)
package indirect enum LooseJSON: Hashable, Sendable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([LooseJSON])
    case object([String: LooseJSON])

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let values = try? container.decode([LooseJSON].self) {
            self = .array(values)
        } else {
            self = .object(try container.decode([String: LooseJSON].self))
        }
    }

    package subscript(key: String) -> LooseJSON? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    package var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    package var int: Int? {
        if case .number(let value) = self, value == value.rounded(), abs(value) < 1e15 { Int(value) } else { nil }
    }

    package var array: [LooseJSON]? {
        if case .array(let values) = self { values } else { nil }
    }

    /// An object's only key and its value (`{"accept": null}`, `{"match": {…}}`).
    package var single: (key: String, value: LooseJSON)? {
        guard case .object(let members) = self, members.count == 1, let member = members.first else { return nil }
        return (member.key, member.value)
    }
}
