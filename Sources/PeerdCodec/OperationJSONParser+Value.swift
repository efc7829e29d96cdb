/// Any JSON value, for what the parser has no list of keys for (a describe's `details`): read with the
/// same tokens, so it is valid UTF-8 and keeps to the limits like the rest, into a ``JSONTree``.
extension OperationJSONParser {
    /// How many levels of objects and arrays a describe's `details` may open, its own included: an
    /// operation the parser takes then nests at most 7 levels deep, well within what the wire allows.
    static let detailsLevels = 5

    /// The value that starts here, opening at most `levels` levels of objects and arrays; nil for
    /// anything a plain operation never holds (a fraction or exponent, a repeated key, an integer
    /// outside `Int64`) and for anything over the limits.
    mutating func value(levels: Int) -> JSONTree? {
        skipWhitespace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return levels > 0 ? members(levels: levels - 1).map(JSONTree.object) : nil
        case UInt8(ascii: "["): return levels > 0 ? elements(levels: levels - 1).map(JSONTree.array) : nil
        case UInt8(ascii: "\""): return string().map { .scalar(.string($0)) }
        case UInt8(ascii: "t"): return literal("true") ? .scalar(.bool(true)) : nil
        case UInt8(ascii: "f"): return literal("false") ? .scalar(.bool(false)) : nil
        case UInt8(ascii: "n"): return literal("null") ? .scalar(.null) : nil
        default: return signed().map { .scalar(.integer($0)) }
        }
    }

    /// `{ "key": value, … }`
    private mutating func members(levels: Int) -> [JSONTree.Member]? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var members: [JSONTree.Member] = []
        if take(UInt8(ascii: "}")) { return members }
        repeat {
            skipWhitespace()
            guard let key = string(), JSONTree.member(key, in: members) == nil, take(UInt8(ascii: ":")),
                let value = value(levels: levels)
            else { return nil }
            members.append(JSONTree.Member(key: key, value: value))
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}")) ? members : nil
    }

    /// `[ value, … ]`
    private mutating func elements(levels: Int) -> [JSONTree]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var elements: [JSONTree] = []
        if take(UInt8(ascii: "]")) { return elements }
        repeat {
            guard elements.count < limits.maxArrayElements, let next = value(levels: levels) else { return nil }
            elements.append(next)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? elements : nil
    }
}
