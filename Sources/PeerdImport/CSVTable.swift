/// A CSV file's header and records, read with ``CSVReader``, each record with the line it starts on.
///
/// Every record must have as many fields as the header: a quote opened and never closed swallows the
/// lines after it into one field, and this is how it shows; a quote opened in the last field of the last
/// record is found by the reader. Blank lines are not records.
struct CSVTable {
    let header: CSVHeader
    /// The records after the header, as many as the budget given to ``read(_:place:budget:)``.
    let records: [CSVRecord]
    /// Every record after the header: read, or past the budget and only counted.
    let count: Int

    /// The first record of `text`, which is the header (its first `maxColumns` fields); nil when there is none.
    static func header(of text: String, maxColumns: Int) -> CSVHeader? {
        var reader = CSVReader(text, maxFields: maxColumns)
        return reader.next().map { CSVHeader($0.fields) }
    }

    /// Reads `text` (already UTF-8, see ``UTF8Text``); `place` names it in errors. A record of more than
    /// `maxColumns` fields is refused, the header's included.
    static func read(
        _ text: String,
        place: String,
        budget: Int,
        maxColumns: Int = ImportLimits.standard.maxColumns
    ) throws(ImportError) -> CSVTable {
        var reader = CSVReader(text, maxFields: maxColumns)
        guard let header = reader.next() else { throw .unknownFormat(place: place, seen: "it is empty") }
        guard header.fieldCount <= maxColumns else {
            throw .tooManyColumns(place: place, line: header.line, limit: maxColumns)
        }
        var records: [CSVRecord] = []
        var count = 0
        while let record = reader.next() {
            guard record.fieldCount <= maxColumns else {
                throw .tooManyColumns(place: place, line: record.line, limit: maxColumns)
            }
            let fields = record.fields
            if fields.count == 1, fields[0].allSatisfy(\.isWhitespace), !record.unclosedQuote { continue }
            guard fields.count == header.fields.count else {
                throw .brokenQuoting(
                    place: place,
                    line: record.line,
                    fields: fields.count,
                    expected: header.fields.count
                )
            }
            guard !record.unclosedQuote else { throw .unclosedQuote(place: place, line: record.line) }
            count += 1
            if records.count < budget { records.append(CSVRecord(line: record.line, fields: fields)) }
        }
        return CSVTable(header: CSVHeader(header.fields), records: records, count: count)
    }

    /// The record's value in `column`, without surrounding white space; nil when empty or no such column.
    func value(_ column: String, in record: CSVRecord) -> String? {
        guard let index = header.index(of: column) else { return nil }
        let value = record.fields[index].trimmingWhitespace()
        return value.isEmpty ? nil : value
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
