import PeerdWire

/// One CSV format: the columns that tell it (and that it needs), and how a record becomes a row.
struct CSVLayout: Sendable {
    let format: ImportFormat
    /// Columns a header must have to be this format.
    let columns: [String]
    /// The column whose value names the movie in messages.
    let titleColumn: String
    let row: @Sendable (CSVTable, CSVRecord) throws(Unusable) -> ImportRow

    /// Reads the whole of `text` as this format into `tally`.
    func read(_ text: String, place: String, file: String?, into tally: inout RowTally) throws(ImportError) {
        let table = try CSVTable.read(text, place: place, budget: tally.budget, maxColumns: tally.maxColumns)
        let missing = table.header.missing(columns)
        guard missing.isEmpty else { throw .missingColumns(place: place, format: format, missing: missing) }
        tally.add(table, as: self, file: file)
    }
}
