import PeerdModel

/// Reads a log record's payload, the JSON of one ``Operation``, several times faster than
/// `JSONDecoder`, which is what lets the daemon cold-start with 100,000 operations in half a second.
///
/// It accepts only the plain shape `JSONEncoder` writes: one object whose keys are exactly those of
/// `Operation` (and `Movie`, `OperationID`), integers without fraction or exponent, strings with
/// standard escapes and valid UTF-8. For anything else — an unknown or repeated key, a `null`, a
/// float — it returns nil and the caller falls back to `JSONDecoder`, so it never accepts what the
/// model's `Decodable` conformance would refuse. Values are checked by the model's own
/// initializers (`PeerID`, `MovieID`, `Operation.Kind`). If `Operation` gains a field, this parser
/// returns nil for records holding it until it learns the field: slower, never wrong.
struct OperationPayloadParser {
    private let bytes: UnsafeRawBufferPointer
    private var index = 0

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The operation in `payload`, or nil if the payload is not in the plain shape (see above).
    static func parse(_ payload: UnsafeRawBufferPointer) -> Operation? {
        var parser = OperationPayloadParser(payload)
        guard let operation = parser.operation() else { return nil }
        parser.skipWhitespace()
        return parser.index == payload.count ? operation : nil
    }

    private mutating func operation() -> Operation? {
        var origin: PeerID?
        var seq: UInt64?
        var lamport: UInt64?
        var at: Int64?
        var by: String?
        var kind: Operation.Kind?
        var movie: Movie?
        var removes: [OperationID]?
        let complete = object { parser, key in
            switch key {
            case "origin": return set(&origin, parser.string().flatMap(PeerID.init))
            case "seq": return set(&seq, parser.unsigned())
            case "lamport": return set(&lamport, parser.unsigned())
            case "at": return set(&at, parser.signed())
            case "by": return set(&by, parser.string())
            case "op": return set(&kind, parser.string().flatMap(Operation.Kind.init(rawValue:)))
            case "movie": return set(&movie, parser.movie())
            case "removes": return set(&removes, parser.operationIDs())
            default: return false
            }
        }
        guard complete, let origin, let seq, let lamport, let at, let by, let kind, let movie else { return nil }
        return Operation(
            id: OperationID(origin: origin, seq: seq),
            lamport: lamport,
            at: at,
            by: by,
            kind: kind,
            movie: movie,
            removes: removes ?? []
        )
    }

    private mutating func movie() -> Movie? {
        var id: MovieID?
        var title: String?
        var year: Int64?
        let complete = object { parser, key in
            switch key {
            case "id": return set(&id, parser.signed().flatMap { Int(exactly: $0) }.flatMap(MovieID.init))
            case "title": return set(&title, parser.string())
            case "year": return set(&year, parser.signed())
            default: return false
            }
        }
        guard complete, let id else { return nil }
        return Movie(id: id, title: title, year: year.flatMap { Int(exactly: $0) })
    }

    private mutating func operationIDs() -> [OperationID]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var ids: [OperationID] = []
        if take(UInt8(ascii: "]")) { return ids }
        repeat {
            var origin: PeerID?
            var seq: UInt64?
            let complete = object { parser, key in
                switch key {
                case "origin": return set(&origin, parser.string().flatMap(PeerID.init))
                case "seq": return set(&seq, parser.unsigned())
                default: return false
                }
            }
            guard complete, let origin, let seq else { return nil }
            ids.append(OperationID(origin: origin, seq: seq))
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? ids : nil
    }

    /// Parses `{ "key": value, … }`, handing each key to `member`, which parses the value and
    /// returns false to give up. Keys with escapes are refused.
    private mutating func object(_ member: (inout OperationPayloadParser, String) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            skipWhitespace()
            guard take(UInt8(ascii: "\"")), let end = bytes[index...].firstIndex(of: UInt8(ascii: "\"")) else {
                return false
            }
            let key = bytes[index..<end]
            guard !key.contains(UInt8(ascii: "\\")) else { return false }
            index = end + 1
            guard take(UInt8(ascii: ":")), member(&self, String(decoding: key, as: UTF8.self)) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    /// A JSON string with valid UTF-8; escapes are decoded, lone surrogates refused.
    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        // Most strings have no escape: validate them straight from the payload.
        var end = index
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
                index = end + 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { return nil }
            end += 1
        }
        var utf8 = Array(bytes[index..<end])
        index = end
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = escape() else { return nil }
                utf8.append(contentsOf: String(escaped).utf8)
            case 0..<0x20:
                return nil
            default:
                utf8.append(byte)
            }
        }
        return nil
    }

    /// The character after a backslash: `\" \\ \/ \b \f \n \r \t \uXXXX` (with surrogate pairs).
    private mutating func escape() -> Unicode.Scalar? {
        guard index < bytes.count else { return nil }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            guard let unit = hex4() else { return nil }
            if (0xD800...0xDBFF).contains(unit) {
                guard take(UInt8(ascii: "\\"), skippingWhitespace: false),
                    take(UInt8(ascii: "u"), skippingWhitespace: false),
                    let low = hex4(), (0xDC00...0xDFFF).contains(low)
                else { return nil }
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
            }
            return Unicode.Scalar(unit)
        default: return nil
        }
    }

    private mutating func hex4() -> UInt32? {
        guard bytes.count - index >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// A non-negative integer: digits only, no leading zero, no fraction or exponent.
    private mutating func unsigned() -> UInt64? {
        skipWhitespace()
        let start = index
        var value: UInt64 = 0
        while index < bytes.count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            index += 1
        }
        let digits = index - start
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        if index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
            default: break
            }
        }
        return value
    }

    private mutating func signed() -> Int64? {
        skipWhitespace()
        let negative = take(UInt8(ascii: "-"), skippingWhitespace: false)
        guard let magnitude = unsigned() else { return nil }
        if negative {
            return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil
        }
        return Int64(exactly: magnitude)
    }

    /// Consumes `byte` (after optional whitespace) if it is next.
    private mutating func take(_ byte: UInt8, skippingWhitespace: Bool = true) -> Bool {
        if skippingWhitespace { skipWhitespace() }
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }
}

/// Stores `value` in a field seen for the first time; false for a repeated key or a bad value.
private func set<Value>(_ field: inout Value?, _ value: Value?) -> Bool {
    guard field == nil, let value else { return false }
    field = value
    return true
}
