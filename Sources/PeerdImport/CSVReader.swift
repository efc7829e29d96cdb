// Hand-written rather than CSV.swift: that package imports all of Foundation, and a static peerctl then carries
// ICU's data (peerctl 63.1 MB with Foundation, 17.9 MB without, measured). RFC 4180 is small: this is all of it.

/// Reads CSV text one record at a time (RFC 4180, as Letterboxd, IMDb and TMDB write it), each record
/// with the line it starts on.
///
/// A comma separates fields; a record ends at a line break (LF, CRLF or CR) or at the end of the text. A
/// field that starts with `"` is quoted: it may hold commas, line breaks and quotes (doubled, `""`), and ends
/// at the next single `"`; what follows a closing quote up to the next comma or line break is kept as it is
/// (`"ab"c` is `abc`). In a field that doesn't start with a quote, a quote is an ordinary character. A byte
/// order mark at the very start is skipped. A blank line is a record of one empty field (``CSVTable`` skips it).
///
/// The reader never fails: a quote that is never closed makes the rest of the text its field, and the
/// record says so (``CSVReader/Record/unclosedQuote``), so the caller can name the line it opened on.
package struct CSVReader: IteratorProtocol {
    /// One record: its fields and the 1-based line it starts on.
    package struct Record: Equatable {
        /// Its fields, the first ``CSVReader/maxFields`` of them.
        package var fields: [String]
        package var line: Int
        /// How many fields it has, those past ``CSVReader/maxFields`` included.
        package var fieldCount = 0
        /// The record's last field opened a quote that the text never closes.
        package var unclosedQuote = false
    }

    private let bytes: [UInt8]
    /// The fields of a record that are kept: a line of commas costs a field's memory per comma otherwise.
    let maxFields: Int
    private var position: Int
    private var line = 1

    package init(_ text: String, maxFields: Int = .max) {
        self.maxFields = maxFields
        bytes = Array(text.utf8)
        position = bytes.starts(with: UTF8Text.byteOrderMark) ? 3 : 0
    }

    /// The next record, or nil at the end of the text (a last line break ends the last record; it starts none).
    package mutating func next() -> Record? {
        guard position < bytes.count else { return nil }
        var record = Record(fields: [], line: line)
        while true {
            let quoted = position < bytes.count && bytes[position] == .quote
            let (field, end) = quoted ? readQuotedField(&record) : readField()
            record.fieldCount += 1
            if record.fields.count < maxFields { record.fields.append(field) }
            if end { return record }
        }
    }

    /// A field not in quotes, up to a comma (`end` false) or a line break or the end of the text (`end` true).
    private mutating func readField() -> (field: String, end: Bool) {
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == .comma {
                position += 1
                return (String(decoding: bytes[start..<position - 1], as: UTF8.self), false)
            }
            if byte == .lineFeed || byte == .carriageReturn {
                let field = String(decoding: bytes[start..<position], as: UTF8.self)
                skipLineBreak()
                return (field, true)
            }
            position += 1
        }
        return (String(decoding: bytes[start...], as: UTF8.self), true)
    }

    /// A field that starts with a quote (at `position`), and what follows its closing quote up to a comma or
    /// a line break.
    private mutating func readQuotedField(_ record: inout Record) -> (field: String, end: Bool) {
        var field: [UInt8] = []
        position += 1
        var runStart = position
        while position < bytes.count {
            switch bytes[position] {
            case .quote:
                field += bytes[runStart..<position]
                if position + 1 < bytes.count, bytes[position + 1] == .quote {
                    field.append(.quote)
                    position += 2
                    runStart = position
                    continue
                }
                position += 1
                let (rest, end) = readField()
                return (String(decoding: field, as: UTF8.self) + rest, end)
            case .lineFeed:
                line += 1
                position += 1
            case .carriageReturn:
                if position + 1 >= bytes.count || bytes[position + 1] != .lineFeed { line += 1 }
                position += 1
            default:
                position += 1
            }
        }
        record.unclosedQuote = true
        field += bytes[runStart...]
        return (String(decoding: field, as: UTF8.self), true)
    }

    /// Steps over one line break at `position`: LF, CR or CRLF.
    private mutating func skipLineBreak() {
        if bytes[position] == .carriageReturn, position + 1 < bytes.count, bytes[position + 1] == .lineFeed {
            position += 1
        }
        position += 1
        line += 1
    }
}

extension UInt8 {
    static let quote = UInt8(ascii: "\"")
    static let comma = UInt8(ascii: ",")
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
}
