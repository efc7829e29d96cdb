import PeerdWire

/// The CSV Letterboxd imports (letterboxd.com/about/importing-data), which `peerctl export --format
/// letterboxd` writes: `Title,Year,tmdbID,imdbID,WatchedDate,Rating10`, in any order and any case, any
/// of them absent; Letterboxd's other columns (`LetterboxdURI`, `Directors`, `Tags`, `Review`) are
/// ignored, but for `Rating` (stars, × 2 as in ``LetterboxdFormat``), read when `Rating10` is absent.
///
/// A row with `WatchedDate` is seen that day; with a rating, rated; with neither, wanted.
enum LetterboxdImportFormat {
    static let columns = ["Title", "Year", "tmdbID", "imdbID", "WatchedDate", "Rating10"]

    static let layout = CSVLayout(format: .letterboxdImport, columns: [], titleColumn: "Title") {
        table,
        record throws(Unusable) in
        let seenOn = try RowValues.day(table.value("WatchedDate", in: record), column: "WatchedDate")
        let rating = try rating(table, record)
        return ImportRow(
            line: 0,
            tmdb: try RowValues.tmdbID(table.value("tmdbID", in: record), column: "tmdbID"),
            imdb: try RowValues.imdbID(table.value("imdbID", in: record)),
            title: try RowValues.title(table.value("Title", in: record)),
            year: RowValues.year(table.value("Year", in: record)),
            want: seenOn == nil && rating == nil,
            seen: seenOn != nil,
            seenOn: seenOn,
            rating: rating
        )
    }

    /// This format when the header has one of `Title`, `tmdbID`, `imdbID` (the columns that name a
    /// movie) and no column of another format was found first (``ImportFile`` asks the others before).
    static func layout(for header: CSVHeader) -> CSVLayout? {
        ["Title", "tmdbID", "imdbID"].contains(where: header.has) ? layout : nil
    }

    private static func rating(_ table: CSVTable, _ record: CSVRecord) throws(Unusable) -> Int? {
        if let rating = table.value("Rating10", in: record) {
            return try RowValues.rating10(rating, column: "Rating10")
        }
        if let stars = table.value("Rating", in: record) { return try RowValues.stars(stars) }
        return nil
    }
}
