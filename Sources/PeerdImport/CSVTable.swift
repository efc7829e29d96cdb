// CSV is read with yaslab/CSV.swift's `CSVReader`, not swiftcsv/SwiftCSV. `CSVReader` is a pull reader
// that hands over one record per `next()`, so a file of 100,000 rows is counted without being held, and
// the same package's `CSVWriter` quotes what `peerctl export` writes. SwiftCSV's `CSV` parses the whole
// text into an array of rows (or of dictionaries) as soon as it is made. Neither gives a record's line,
// nor reports a quote left open at the end of the text (both read it as one last field), so `CSVTable`
// counts lines from the records and checks each record's fields against the header.
import CSV

/// A CSV file's header and records, read with CSV.swift, each record with the line it starts on.
///
/// RFC 4180 as Letterboxd, IMDb and TMDB write it: a comma between fields, a record ends at a line
/// break (LF, CRLF or CR), a field in double quotes may hold commas, quotes (doubled) and line breaks.
/// Every record must have as many fields as the header: a quote opened and never closed swallows the
/// lines after it into one field, and this is how it shows. Blank lines are not records.
struct CSVTable {
    let header: CSVHeader
    /// The records after the header, as many as the budget given to ``read(_:place:budget:)``.
    let records: [CSVRecord]
    /// Every record after the header: read, or past the budget and only counted.
    let count: Int

    /// The first record of `text`, which is the header; nil when there is none.
    static func header(of text: String) -> CSVHeader? {
        // Only a header row makes CSVReader's initialiser throw, and this one reads the header itself.
        let reader = try! CSVReader(string: text)
        return reader.next().map(CSVHeader.init)
    }

    /// Reads `text` (already UTF-8, see ``UTF8Text``); `place` names it in errors.
    static func read(_ text: String, place: String, budget: Int) throws(ImportError) -> CSVTable {
        let reader = try! CSVReader(string: text)
        guard let header = reader.next() else { throw .unknownFormat(place: place, seen: "it is empty") }
        var line = 2 + lineBreaks(header)
        var records: [CSVRecord] = []
        var count = 0
        var last: CSVRecord?
        while let fields = reader.next() {
            let start = line
            line += 1 + lineBreaks(fields)
            if fields.count == 1, fields[0].allSatisfy(\.isWhitespace) { continue }
            guard fields.count == header.count else {
                throw .brokenQuoting(place: place, line: start, fields: fields.count, expected: header.count)
            }
            count += 1
            let record = CSVRecord(line: start, fields: fields)
            if records.count < budget { records.append(record) }
            last = record
        }
        if let last, let end = last.fields.last?.unicodeScalars.last, end == "\n" || end == "\r" {
            throw .unclosedQuote(place: place, line: last.line)
        }
        return CSVTable(header: CSVHeader(header), records: records, count: count)
    }

    /// The record's value in `column`, without surrounding white space; nil when empty or no such column.
    func value(_ column: String, in record: CSVRecord) -> String? {
        guard let index = header.index(of: column) else { return nil }
        let value = record.fields[index].trimmingWhitespace()
        return value.isEmpty ? nil : value
    }

    /// Line breaks inside the fields: a record spans one line more than it holds.
    private static func lineBreaks(_ fields: [String]) -> Int {
        var breaks = 0
        for field in fields {
            var afterCarriageReturn = false
            for scalar in field.unicodeScalars {
                if scalar == "\r" || (scalar == "\n" && !afterCarriageReturn) { breaks += 1 }
                afterCarriageReturn = scalar == "\r"
            }
        }
        return breaks
    }
}

/// A CSV header: its column names, trimmed, found in any case (`tmdbID`, `TMDBID`).
struct CSVHeader {
    let names: [String]
    private let indices: [String: Int]

    init(_ fields: [String]) {
        names = fields.map { $0.trimmingWhitespace() }
        var indices: [String: Int] = [:]
        for (index, name) in names.enumerated() where indices[name.lowercased()] == nil {
            indices[name.lowercased()] = index
        }
        self.indices = indices
    }

    func index(of column: String) -> Int? { indices[column.lowercased()] }

    func has(_ column: String) -> Bool { index(of: column) != nil }

    func hasAll(_ columns: [String]) -> Bool { columns.allSatisfy(has) }

    /// Those of `columns` the header lacks.
    func missing(_ columns: [String]) -> [String] { columns.filter { !has($0) } }

    /// The header as its line reads, cut short, for messages.
    var line: String {
        let line = names.joined(separator: ",")
        return line.count > 120 ? line.prefix(120) + "…" : line
    }
}

/// One record of a ``CSVTable``: its fields, in the header's order, and the 1-based line it starts on.
struct CSVRecord {
    let line: Int
    let fields: [String]
}

extension StringProtocol {
    /// The text without white space (spaces, tabs, line breaks) at either end.
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}
