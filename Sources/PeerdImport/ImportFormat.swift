/// The kinds of file `peerctl import` reads, told apart by their content (a ZIP's entries, a CSV's
/// header, a JSON document's shape), never by the file's extension (docs/IMPORT.md).
package enum ImportFormat: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// Letterboxd's data export: watched.csv, diary.csv, ratings.csv and watchlist.csv are read.
    case letterboxdZIP
    /// One CSV of Letterboxd's export, by its header (and, for the two that share one, its name).
    case letterboxdWatchlist, letterboxdWatched, letterboxdRatings, letterboxdDiary
    /// The CSV Letterboxd imports (letterboxd.com/about/importing-data), as `peerctl export` writes it.
    case letterboxdImport
    /// An IMDb list's export (the watchlist is one), and the ratings export.
    case imdbList, imdbRatings
    /// TMDB's CSV export of a watchlist or of ratings.
    case tmdb
    /// Trakt's JSON export: one file, or a ZIP of them.
    case traktJSON, traktZIP
    /// What `peerctl export --format csv` writes, and the file of unresolved rows an import leaves.
    case peerdCSV
    /// What `peerctl export --format json` writes.
    case peerdJSON

    package var description: String {
        switch self {
        case .letterboxdZIP: "Letterboxd export (ZIP)"
        case .letterboxdWatchlist: "Letterboxd watchlist.csv"
        case .letterboxdWatched: "Letterboxd watched.csv"
        case .letterboxdRatings: "Letterboxd ratings.csv"
        case .letterboxdDiary: "Letterboxd diary.csv"
        case .letterboxdImport: "Letterboxd import CSV (Title, Year, tmdbID, imdbID, WatchedDate, Rating10)"
        case .imdbList: "IMDb list or watchlist (CSV)"
        case .imdbRatings: "IMDb ratings (CSV)"
        case .tmdb: "TMDB export (CSV)"
        case .traktJSON: "Trakt watchlist, history or ratings (JSON)"
        case .traktZIP: "Trakt export (ZIP of JSON)"
        case .peerdCSV: "peerd CSV (peerctl export --format csv)"
        case .peerdJSON: "peerd JSON (peerctl export --format json)"
        }
    }
}

/// A record of the file that gives no row: not a movie (a TV show, an episode), or a value peerd
/// can't use (a rating out of range, a title too long). Said to the user; never imported.
package struct SkippedRow: Hashable, Sendable {
    /// The file inside an archive (`diary.csv`), if any.
    package var file: String?
    /// The 1-based line where the record starts; for JSON, the item's 1-based place in its array;
    /// 0 for what is about the whole file.
    package var line: Int
    /// The title, when the record had one, so the message can name it.
    package var title: String?
    /// Why, as a phrase: "not a movie (tvSeries)".
    package var reason: String

    package init(file: String? = nil, line: Int, title: String? = nil, reason: String) {
        self.file = file
        self.line = line
        self.title = title
        self.reason = reason
    }
}
