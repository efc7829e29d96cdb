package import PeerdModel
package import PeerdWire

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `peerctl export --format` writes.
package enum ExportFormat: String, CaseIterable, Hashable, Sendable {
    /// The CSV Letterboxd imports (letterboxd.com/about/importing-data).
    case letterboxd
    /// peerd's CSV (``PeerdCSVFormat``): this member's marks, then who added, wants and saw each movie.
    case csv
    /// peerd's JSON (``PeerdExport``): every field of every row, every member's marks.
    case json
}

/// The files `peerctl export` writes, from the list rows the daemon gives: UTF-8, `\n` at the end of
/// each line, CSV quoted by ``CSVWriter`` where a field needs it. Whatever it writes,
/// ``ImportFile`` reads back: the rows' marks are the exporting member's marks, and csv and json list
/// every movie again.
package enum ExportWriter {
    /// Letterboxd's import columns, as ``ExportFormat/letterboxd`` writes them.
    package static let letterboxdColumns = ["Title", "Year", "tmdbID", "imdbID", "WatchedDate", "Rating10"]
    /// What ``ExportFormat/csv`` writes after ``PeerdCSVFormat/columns``, which an import ignores.
    package static let informationColumns = ["AddedBy", "AddedAt", "WantedBy", "SeenBy"]

    /// The file of `movies` (list rows, with every member's marks) in `format`, for the member `me`
    /// (named `myName`), whose marks fill the mark columns. With `mine`, only the movies `me` added
    /// or marked. `exportedAt` (ms since 1970) goes into the JSON.
    package static func write(
        _ movies: [MovieRecord],
        format: ExportFormat,
        me: PeerID,
        myName: String,
        mine: Bool,
        exportedAt: Int64 = now()
    ) -> [UInt8] {
        let movies = mine ? movies.filter { $0.addedByPeers.contains(me) || $0.marks(of: me) != nil } : movies
        switch format {
        case .letterboxd:
            return csv(letterboxdColumns, movies.map { letterboxdRow($0, marks: $0.marks(of: me)) })
        case .csv:
            return csv(PeerdCSVFormat.columns + informationColumns, movies.map { peerdRow($0, me: me) })
        case .json:
            let document = PeerdExport(exportedAt: exportedAt, member: .init(peer: me, name: myName), movies: movies)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            // Strings, numbers and arrays of them: encoding can't fail.
            return Array(try! encoder.encode(document)) + [UInt8(ascii: "\n")]
        }
    }

    /// The file of rows an import could not resolve: peerd's CSV with a last `Reason` column, to fix
    /// (an id, a title, a year) and import again.
    package static func unresolved(_ rows: [(row: ImportRow, reason: String)]) -> [UInt8] {
        csv(
            PeerdCSVFormat.columns + [PeerdCSVFormat.reasonColumn],
            rows.map { row, reason in
                [
                    row.tmdb.map(String.init) ?? "", row.imdb ?? "", row.title ?? "", row.year.map(String.init) ?? "",
                    yes(row.list), yes(row.want), yes(row.seen), row.seenOn ?? "", row.rating.map(String.init) ?? "",
                    yes(row.veto), reason,
                ]
            }
        )
    }

    /// Milliseconds since 1970, now.
    package static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

    /// `imdbID` stays empty: a list row (``MovieRecord``) carries no IMDb id today (only the details do).
    private static func letterboxdRow(_ movie: MovieRecord, marks: MarkRecord?) -> [String] {
        [
            movie.title ?? "", movie.year.map(String.init) ?? "", String(movie.movieId), "",
            marks?.seenOn ?? "", marks?.rating.map(String.init) ?? "",
        ]
    }

    private static func peerdRow(_ movie: MovieRecord, me: PeerID) -> [String] {
        let marks = movie.marks(of: me)
        let addedAt = Date(timeIntervalSince1970: Double(movie.addedAt) / 1000).formatted(.iso8601)
        return [
            String(movie.movieId), "", movie.title ?? "", movie.year.map(String.init) ?? "", "yes",
            yes(marks?.want ?? false), yes(marks?.seen ?? false), marks?.seenOn ?? "",
            marks?.rating.map(String.init) ?? "", yes(marks?.veto ?? false),
            movie.addedBy.joined(separator: "; "), addedAt,
            movie.marks.filter(\.want).map(\.name).joined(separator: "; "),
            movie.marks.filter(\.seen).map(\.name).joined(separator: "; "),
        ]
    }

    private static func yes(_ flag: Bool) -> String { flag ? "yes" : "" }

    private static func csv(_ header: [String], _ rows: [[String]]) -> [UInt8] {
        CSVWriter.write([header] + rows)
    }
}

extension MovieRecord {
    /// The marks of `member`, when they have any set.
    func marks(of member: PeerID) -> MarkRecord? {
        marks.first { $0.peer == member && $0.marksSomething }
    }
}
