/// The token level of ``OperationJSONParser`` is ``JSONScanner``'s: these read a token at the
/// parser's place and move it on. The schema level, in OperationJSONParser.swift, says which keys
/// and values make an operation.
extension OperationJSONParser {
    private mutating func scan<Value>(_ read: (inout JSONScanner) -> Value) -> Value {
        var scanner = JSONScanner(bytes, at: index, maxStringBytes: limits.maxStringBytes)
        defer { index = scanner.index }
        return read(&scanner)
    }

    /// See ``JSONScanner/plainString()``: nothing is consumed.
    mutating func plainString() -> Range<Int>? { scan { $0.plainString() } }
    mutating func string() -> String? { scan { $0.string() } }
    mutating func unsigned(skippingWhitespace: Bool = true) -> UInt64? {
        scan { $0.unsigned(skippingWhitespace: skippingWhitespace) }
    }
    mutating func signed() -> Int64? { scan { $0.signed() } }
    mutating func boolean() -> Bool? { scan { $0.boolean() } }
    mutating func take(_ byte: UInt8, skippingWhitespace: Bool = true) -> Bool {
        scan { $0.take(byte, skippingWhitespace: skippingWhitespace) }
    }
    mutating func skipWhitespace() { scan { $0.skipWhitespace() } }
    mutating func literal(_ word: StaticString) -> Bool { scan { $0.literal(word) } }
}
