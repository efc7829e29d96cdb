/// The text of a CSV or JSON file (or ZIP entry): UTF-8, with a byte order mark at the start dropped.
/// Anything else is refused with the line of the first byte that is not UTF-8, so that the user can
/// find it; a file in Latin-1 or UTF-16 is not guessed at. A file that is not text at all (a NUL in
/// its first 4 KiB, or a bad byte on its first line, where every format has its ASCII header) is of
/// an unknown format.
package enum UTF8Text {
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    package static func decode(_ bytes: [UInt8], place: String) throws(ImportError) -> String {
        let body = bytes.starts(with: byteOrderMark) ? bytes[3...] : bytes[...]
        if let text = String(validating: body, as: UTF8.self) { return text }
        let (line, byte) = firstInvalidByte(body)
        if line == 1 || body.prefix(4096).contains(0) {
            throw .unknownFormat(place: place, seen: "it is not a ZIP, and not UTF-8 text")
        }
        throw .notUTF8(place: place, line: line, byte: byte)
    }

    /// The 1-based line of the first byte that does not start a valid UTF-8 sequence, and the byte.
    static func firstInvalidByte(_ bytes: ArraySlice<UInt8>) -> (line: Int, byte: UInt8) {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = bytes.startIndex
        var line = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar):
                if scalar.count == 1, scalar.first == UInt8(ascii: "\n") { line += 1 }
                offset += scalar.count
            case .error:
                return (line, bytes[offset])
            case .emptyInput:
                return (line, 0)
            }
        }
    }
}
