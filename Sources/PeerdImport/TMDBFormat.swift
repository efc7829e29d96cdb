import PeerdWire

/// TMDB's CSV export of a watchlist or of ratings (account → Import/Export):
/// `TMDb ID,IMDb ID,Type,Name,Release Date,Season Number,Episode Number,Rating,Your Rating,Date Rated`,
/// dates as `2022-05-04T00:00:00Z`.
///
/// Only `Type` `movie` is read; `tv` (a show, a season, an episode) is skipped. A row with `Your Rating`
/// (TMDB's 0.5 to 10, `7.0`, `7.5`) is rated, rounded half up to peerd's whole 1 to 10 (7.5 is 8, 7.4
/// is 7, 0.5 is 1), and seen, with no day; a row without one is wanted. The year is `Release Date`'s.
enum TMDBFormat {
    static let columns = ["TMDb ID", "Type"]

    static let layout = CSVLayout(format: .tmdb, columns: columns, titleColumn: "Name") {
        table,
        record throws(Unusable) in
        let type = table.value("Type", in: record) ?? ""
        guard type.lowercased() == "movie" else { throw Unusable("not a movie (\(type.isEmpty ? "no type" : type))") }
        let rating = try table.value("Your Rating", in: record).map { text throws(Unusable) in
            try RowValues.roundedRating(text, column: "Your Rating")
        }
        return ImportRow(
            line: 0,
            tmdb: try RowValues.tmdbID(table.value("TMDb ID", in: record), column: "TMDb ID"),
            imdb: try RowValues.imdbID(table.value("IMDb ID", in: record)),
            title: try RowValues.title(table.value("Name", in: record)),
            year: RowValues.year(table.value("Release Date", in: record)),
            want: rating == nil,
            seen: rating != nil,
            rating: rating
        )
    }

    static func layout(for header: CSVHeader) -> CSVLayout? { header.hasAll(columns) ? layout : nil }
}
