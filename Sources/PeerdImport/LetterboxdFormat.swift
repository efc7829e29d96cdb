import PeerdWire

/// Letterboxd's data export (Settings → Data → Export your data): a ZIP of CSV files, of which four
/// are read and the rest (profile.csv, reviews.csv, comments.csv, likes/, lists/, deleted/, …) ignored.
///
/// Each has `Date,Name,Year,Letterboxd URI` (`Date` is the day the entry was made); ratings.csv adds
/// `Rating`, diary.csv `Rating,Rewatch,Tags,Watched Date`. Rows carry the title and year only: no id.
/// Ratings are 0.5 to 5 stars in halves, and become peerd's 1 to 10 as stars × 2 (½ star is 1, five
/// stars 10); any other rating skips its row.
enum LetterboxdFormat {
    static let columns = ["Date", "Name", "Year", "Letterboxd URI"]

    /// watchlist.csv: want to watch.
    static let watchlist = layout(.letterboxdWatchlist, columns) { _, _ in ImportRow(line: 0, want: true) }

    /// watched.csv: seen, on the day it was logged (`Date`).
    static let watched = layout(.letterboxdWatched, columns) { table, record throws(Unusable) in
        ImportRow(line: 0, seen: true, seenOn: try RowValues.day(table.value("Date", in: record), column: "Date"))
    }

    /// ratings.csv: the rating.
    static let ratings = layout(.letterboxdRatings, columns + ["Rating"]) { table, record throws(Unusable) in
        guard let stars = table.value("Rating", in: record) else { throw Unusable("it has no rating") }
        return ImportRow(line: 0, rating: try RowValues.stars(stars))
    }

    /// diary.csv: seen on `Watched Date` (else `Date`), with the rating when the entry has one.
    static let diary = layout(.letterboxdDiary, columns + ["Rating", "Watched Date"]) {
        table,
        record throws(Unusable) in
        let watchedOn = table.value("Watched Date", in: record) ?? table.value("Date", in: record)
        return ImportRow(
            line: 0,
            seen: true,
            seenOn: try RowValues.day(watchedOn, column: "Watched Date"),
            rating: try table.value("Rating", in: record).map { stars throws(Unusable) in try RowValues.stars(stars) }
        )
    }

    /// The parts of the export that are read, in the order they are read: what was seen first (watched,
    /// then the diary's dated entries, whose days come later and so win), then ratings, then the
    /// watchlist.
    static let parts: [(name: String, layout: CSVLayout)] = [
        ("watched.csv", watched), ("diary.csv", diary), ("ratings.csv", ratings), ("watchlist.csv", watchlist),
    ]

    /// The CSV of Letterboxd's export that `header` is, or nil when it is none. watchlist.csv and
    /// watched.csv share a header, so the file's `name` tells them apart.
    static func layout(for header: CSVHeader, name: String, place: String) throws(ImportError) -> CSVLayout? {
        guard header.hasAll(columns) else { return nil }
        if header.has("Watched Date") { return diary }
        if header.has("Rating") { return ratings }
        let name = name.lowercased()
        if name.contains("watchlist") { return watchlist }
        if name.contains("watched") { return watched }
        throw .ambiguousLetterboxdCSV(place: place)
    }

    /// Where each part is in the ZIP: at its root, or inside the one folder it was unpacked to and
    /// zipped again, but not in Letterboxd's own folders (deleted/diary.csv is not the diary).
    static func paths(in zip: ZipArchive) -> [String: String] {
        let names = Set(parts.map(\.name))
        let ownFolders: Set<String> = ["deleted", "orphaned", "likes", "lists", "__macosx"]
        var found: [String: String] = [:]
        for path in zip.paths {
            let components = path.split(separator: "/").map(String.init)
            guard let name = components.last, names.contains(name) else { continue }
            if components.count == 1 {
                found[name] = path
            } else if components.count == 2, !ownFolders.contains(components[0].lowercased()), found[name] == nil {
                found[name] = path
            }
        }
        return found
    }

    /// Reads the parts of a Letterboxd export, in ``parts``' order.
    static func read(_ zip: ZipArchive, paths: [String: String], into tally: inout RowTally) throws(ImportError) {
        for (name, layout) in parts {
            guard let path = paths[name] else { continue }
            let place = "\(zip.place): \(path)"
            let text = try UTF8Text.decode(try zip.read(path), place: place)
            try layout.read(text, place: place, file: path, into: &tally)
        }
    }

    private static func layout(
        _ format: ImportFormat,
        _ columns: [String],
        _ row: @escaping @Sendable (CSVTable, CSVRecord) throws(Unusable) -> ImportRow
    ) -> CSVLayout {
        CSVLayout(format: format, columns: columns, titleColumn: "Name") { table, record throws(Unusable) in
            var film = try row(table, record)
            film.title = try RowValues.title(table.value("Name", in: record))
            film.year = RowValues.year(table.value("Year", in: record))
            return film
        }
    }
}
