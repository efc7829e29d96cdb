/// The token level of the hand-written JSON parsers (``OperationJSONParser`` for operations, the
/// `list` page's reader in PeerdWire): strings (validated UTF-8, escapes), integers, numbers,
/// literals, punctuation and whitespace, read from a buffer at `index`. A parser's schema level says
/// which keys and values make its message; every method returns nil (or false) for what it does not
/// take, and the parser then gives the whole body up to `JSONDecoder`. Its methods are inlinable,
/// so a parser in another module (PeerdWire's) calls them as cheaply as one in this module.
package struct JSONScanner {
    package let bytes: UnsafeRawBufferPointer
    package var index: Int
    /// Strings longer than this (bytes between the quotes, as written) are not taken.
    package let maxStringBytes: Int

    @inlinable
    package init(_ bytes: UnsafeRawBufferPointer, at index: Int = 0, maxStringBytes: Int = .max) {
        self.bytes = bytes
        self.index = index
        self.maxStringBytes = maxStringBytes
    }

    /// Whether only whitespace is left.
    @inlinable
    package mutating func isAtEnd() -> Bool {
        skipWhitespace()
        return index == bytes.count
    }

    /// The bytes of the string that starts here (after whitespace) if it holds no escape and no
    /// control character, without consuming anything; the closing quote is at the range's end.
    @inlinable
    package mutating func plainString() -> Range<Int>? {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        var end = index + 1
        while end < bytes.count {
            switch bytes[end] {
            case UInt8(ascii: "\""): return end - (index + 1) <= maxStringBytes ? (index + 1)..<end : nil
            case UInt8(ascii: "\\"), 0..<0x20: return nil
            default: end += 1
            }
        }
        return nil
    }

    /// A JSON string with valid UTF-8 within the length limit; escapes are decoded, lone surrogates
    /// refused.
    @inlinable
    package mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        // Most strings have no escape: validate them straight from the payload.
        var end = index
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                guard end - start <= maxStringBytes else { return nil }
                let text = Self.validatedString(UnsafeRawBufferPointer(rebasing: bytes[index..<end]))
                index = end + 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { return nil }
            end += 1
        }
        var utf8 = Array(bytes[index..<end])
        index = end
        // The closing quote, when it comes, is at `index` or later: past the limit already means too long.
        while index < bytes.count, index - start <= maxStringBytes {
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

    /// The text of `utf8`, or nil if it is not valid UTF-8. ASCII, the common case, skips the
    /// generic validation, which showed up in the profile.
    @inlinable
    package static func validatedString(_ utf8: UnsafeRawBufferPointer) -> String? {
        if utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: utf8.assumingMemoryBound(to: UInt8.self), as: UTF8.self)
        }
        return String(validating: utf8, as: UTF8.self)
    }

    /// The character after a backslash: `\" \\ \/ \b \f \n \r \t \uXXXX` (with surrogate pairs).
    @usableFromInline
    mutating func escape() -> Unicode.Scalar? {
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

    @usableFromInline
    mutating func hex4() -> UInt32? {
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
    @inlinable
    package mutating func unsigned(skippingWhitespace: Bool = true) -> UInt64? {
        if skippingWhitespace { skipWhitespace() }
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

    @inlinable
    package mutating func signed() -> Int64? {
        skipWhitespace()
        let negative = take(UInt8(ascii: "-"), skippingWhitespace: false)
        // No whitespace between the sign and the digits: `- 5` is not JSON (the fuzz test found this).
        guard let magnitude = unsigned(skippingWhitespace: !negative) else { return nil }
        if negative {
            return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil
        }
        return Int64(exactly: magnitude)
    }

    /// A number as `JSONDecoder` reads it into a `Double`: JSON's grammar (`-`, an integer part with
    /// no leading zero, a fraction, an exponent), parsed to the nearest `Double`; nil for anything
    /// else and for what is too large to be finite.
    @inlinable
    package mutating func number() -> Double? {
        skipWhitespace()
        let start = index
        _ = take(UInt8(ascii: "-"), skippingWhitespace: false)
        let integral = digits()
        guard integral > 0, integral == 1 || bytes[index - integral] != UInt8(ascii: "0") else { return nil }
        if take(UInt8(ascii: "."), skippingWhitespace: false) {
            guard digits() > 0 else { return nil }
        }
        if take(UInt8(ascii: "e"), skippingWhitespace: false) || take(UInt8(ascii: "E"), skippingWhitespace: false) {
            if !take(UInt8(ascii: "+"), skippingWhitespace: false) {
                _ = take(UInt8(ascii: "-"), skippingWhitespace: false)
            }
            guard digits() > 0 else { return nil }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { return nil }
        // One so small that it reads as 0 (`2e-1956`) is left to `JSONDecoder`, which refuses it as JSON.
        guard value != 0 || !Self.hasNonZeroDigit(text) else { return nil }
        return value
    }

    /// Whether a number's mantissa has a digit other than 0: one that reads as 0 then underflowed.
    @usableFromInline
    static func hasNonZeroDigit(_ number: String) -> Bool {
        for byte in number.utf8 {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { return false }
            if byte >= UInt8(ascii: "1"), byte <= UInt8(ascii: "9") { return true }
        }
        return false
    }

    /// Consumes a run of decimal digits; how many.
    @usableFromInline
    mutating func digits() -> Int {
        let start = index
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        return index - start
    }

    /// `true` or `false`.
    @inlinable
    package mutating func boolean() -> Bool? {
        skipWhitespace()
        if literal("true") { return true }
        return literal("false") ? false : nil
    }

    /// Consumes `byte` (after optional whitespace) if it is next.
    @inlinable
    package mutating func take(_ byte: UInt8, skippingWhitespace: Bool = true) -> Bool {
        if skippingWhitespace { skipWhitespace() }
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    @inlinable
    package mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// Consumes `word` if it is next.
    @inlinable
    package mutating func literal(_ word: StaticString) -> Bool {
        let end = index + word.utf8CodeUnitCount
        guard end <= bytes.count else { return false }
        let matches = word.withUTF8Buffer {
            bytesEqual(UnsafeRawBufferPointer($0), UnsafeRawBufferPointer(rebasing: bytes[index..<end]))
        }
        if matches { index = end }
        return matches
    }
}
