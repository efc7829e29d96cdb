import PeerdWire

/// The rows and skipped rows of a file as its parts are read, in order, and how many records it had.
///
/// Records past ``ImportLimits/maxRows`` are counted, not kept, so that the error can say how many
/// the file has without holding them.
struct RowTally {
    let maxRows: Int
    /// Fields of one CSV record (``ImportLimits/maxColumns``).
    let maxColumns: Int
    private(set) var rows: [ImportRow] = []
    private(set) var skipped: [SkippedRow] = []
    /// Records seen so far, kept or only counted.
    private(set) var records = 0

    init(maxRows: Int, maxColumns: Int = ImportLimits.standard.maxColumns) {
        self.maxRows = maxRows
        self.maxColumns = maxColumns
    }

    /// How many more records may be kept.
    var budget: Int { max(0, maxRows - records) }

    /// Adds the row `make` gives for the record at `line` of `file`, or a skipped row with its reason.
    mutating func add(
        file: String?,
        line: Int,
        title: String?,
        _ make: () throws(Unusable) -> ImportRow
    ) {
        do throws(Unusable) {
            var row = try RowValues.checked(make())
            row.file = file
            row.line = line
            rows.append(row)
        } catch {
            skipped.append(SkippedRow(file: file, line: line, title: title, reason: error.reason))
        }
    }

    /// A skipped row that no record gave (a note about the whole file).
    mutating func skip(_ row: SkippedRow) { skipped.append(row) }

    /// Counts records, kept or not.
    mutating func count(_ records: Int) { self.records += records }

    /// Every record of `table`, as `layout` reads them.
    mutating func add(_ table: CSVTable, as layout: CSVLayout, file: String?) {
        for record in table.records {
            add(file: file, line: record.line, title: table.value(layout.titleColumn, in: record)) {
                () throws(Unusable) -> ImportRow in
                try layout.row(table, record)
            }
        }
        count(table.count)
    }

    /// Refuses a file of more records than ``maxRows``.
    func checkLimit(place: String) throws(ImportError) {
        guard records <= maxRows else { throw .tooManyRows(place: place, rows: records, limit: maxRows) }
    }
}
