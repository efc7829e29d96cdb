import PeerdWire

/// peerd's own CSV: what `peerctl export --format csv` writes, and the file of unresolved rows an
/// import leaves (the same columns and a last `Reason`, to fix the rows and import the file again).
///
/// `tmdbID,imdbID,Title,Year,Listed,Want,Seen,WatchedDate,Rating10,Veto` are read: the flags are `yes`
/// or empty, `WatchedDate` is `YYYY-MM-DD` (and makes the row seen), `Rating10` is 1 to 10. Columns
/// after them (`AddedBy,AddedAt,WantedBy,SeenBy` from an export, `Reason`) are ignored.
package enum PeerdCSVFormat {
    /// The columns an import reads, in the order an export writes them.
    package static let columns = [
        "tmdbID", "imdbID", "Title", "Year", "Listed", "Want", "Seen", "WatchedDate", "Rating10", "Veto",
    ]
    /// The file of unresolved rows: ``columns``, then why each row was not imported.
    package static let reasonColumn = "Reason"

    static let layout = CSVLayout(format: .peerdCSV, columns: ["Listed"], titleColumn: "Title") {
        table,
        record throws(Unusable) in
        func flag(_ column: String) throws(Unusable) -> Bool {
            try RowValues.flag(table.value(column, in: record), column: column)
        }
        let seenOn = try RowValues.day(table.value("WatchedDate", in: record), column: "WatchedDate")
        return ImportRow(
            line: 0,
            tmdb: try RowValues.tmdbID(table.value("tmdbID", in: record), column: "tmdbID"),
            imdb: try RowValues.imdbID(table.value("imdbID", in: record)),
            title: try RowValues.title(table.value("Title", in: record)),
            year: RowValues.year(table.value("Year", in: record)),
            list: try flag("Listed"),
            want: try flag("Want"),
            seen: try flag("Seen") || seenOn != nil,
            seenOn: seenOn,
            rating: try table.value("Rating10", in: record).map { text throws(Unusable) in
                try RowValues.rating10(text, column: "Rating10")
            },
            veto: try flag("Veto")
        )
    }

    /// peerd's CSV when the header has `Listed` beside one of the columns that name a movie.
    static func layout(for header: CSVHeader) -> CSVLayout? {
        header.has("Listed") && ["tmdbID", "imdbID", "Title"].contains(where: header.has) ? layout : nil
    }
}
