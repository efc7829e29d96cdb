import PeerdWire

/// IMDb's CSV exports: a list's (the watchlist is a list) and the ratings.
///
/// A list: `Position,Const,Created,Modified,Description,Title,Original Title,URL,Title Type,IMDb Rating,
/// Runtime (mins),Year,Genres,Num Votes,Release Date,Directors,Your Rating,Date Rated` (older exports
/// lack `Original Title`, `Your Rating` and `Date Rated`); each title is wanted. The ratings:
/// `Const,Your Rating,Date Rated,Title,Original Title,URL,Title Type,…`; each title is rated (1 to 10,
/// as IMDb's) and seen, with no day (`Date Rated` is when it was rated, not seen).
///
/// `Const` is the IMDb id (`tt0133093`), which the daemon resolves with TMDB's `/3/find`. A row is a
/// movie when its `Title Type` is a movie, a TV movie, a video or a short (`movie`, `tvMovie`,
/// `video`, `short`, and the spelled-out `TV Movie`, …: TMDB lists all of these as movies); a series,
/// an episode, a mini-series, a special, a TV short, a game, … is skipped ("not a movie (tvSeries)").
enum IMDbFormat {
    /// Title types that are movies, lowercased and without spaces.
    static let movieTypes: Set<String> = ["movie", "tvmovie", "video", "short"]

    static let list = layout(.imdbList, ["Position", "Const", "Title Type"]) { _, _ in ImportRow(line: 0, want: true) }

    static let ratings = layout(.imdbRatings, ["Const", "Your Rating", "Title Type"]) {
        table,
        record throws(Unusable) in
        guard let rating = table.value("Your Rating", in: record) else { throw Unusable("it has no rating") }
        return ImportRow(line: 0, seen: true, rating: try RowValues.rating10(rating, column: "Your Rating"))
    }

    /// The list when the header has `Position`, else the ratings when it has `Your Rating`.
    static func layout(for header: CSVHeader) -> CSVLayout? {
        guard header.hasAll(["Const", "Title Type"]) else { return nil }
        if header.has("Position") { return list }
        return header.has("Your Rating") ? ratings : nil
    }

    private static func layout(
        _ format: ImportFormat,
        _ columns: [String],
        _ row: @escaping @Sendable (CSVTable, CSVRecord) throws(Unusable) -> ImportRow
    ) -> CSVLayout {
        CSVLayout(format: format, columns: columns, titleColumn: "Title") { table, record throws(Unusable) in
            let type = table.value("Title Type", in: record) ?? ""
            guard movieTypes.contains(type.lowercased().filter { $0 != " " }) else {
                throw Unusable("not a movie (\(type.isEmpty ? "no title type" : type))")
            }
            var title = try row(table, record)
            title.imdb = try RowValues.imdbID(table.value("Const", in: record))
            title.title = try RowValues.title(table.value("Title", in: record))
            title.year = RowValues.year(table.value("Year", in: record))
            return title
        }
    }
}
