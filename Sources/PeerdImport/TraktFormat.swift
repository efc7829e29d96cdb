import PeerdWire

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Trakt's JSON export: arrays of items, one file each (watchlist, history, ratings, watched), alone or
/// in a ZIP (Trakt's own data export). Each item is read by its shape, whatever its file is called:
///
/// - `{"listed_at": …, "type": "movie", "movie": {…}}`, the watchlist: wanted;
/// - `{"watched_at": "2023-01-05T21:13:00.000Z", "action": "watch", "type": "movie", "movie": {…}}`,
///   the history: seen on the day of `watched_at` (in UTC, as Trakt writes it);
/// - `{"last_watched_at": …, "plays": 2, "movie": {…}}`, the watched movies: seen on that day;
/// - `{"rated_at": …, "rating": 8, "type": "movie", "movie": {…}}`, the ratings: rated (Trakt's 1 to
///   10 are peerd's).
///
/// `movie` is `{"title": …, "year": …, "ids": {"trakt": …, "slug": …, "imdb": "tt…", "tmdb": 603}}`;
/// a row carries what it has, and the daemon resolves by `tmdb`, else `imdb`, else title and year.
/// Items of another `type` (show, season, episode, person) are skipped: "not a movie (episode)".
/// In JSON a row's line is the item's 1-based place in its array.
enum TraktFormat {
    struct Item: Decodable {
        var type: String?
        var listedAt: String?
        var watchedAt: String?
        var lastWatchedAt: String?
        var ratedAt: String?
        var rating: Double?
        var movie: Movie?
        var show, season, episode: Present?

        enum CodingKeys: String, CodingKey {
            case type, rating, movie, show, season, episode
            case listedAt = "listed_at", watchedAt = "watched_at", lastWatchedAt = "last_watched_at"
            case ratedAt = "rated_at"
        }
    }

    /// A value that is not read: only whether its key is there.
    struct Present: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    struct Movie: Decodable {
        var title: String?
        var year: Int?
        var ids: IDs?
    }

    struct IDs: Decodable {
        var tmdb: Int?
        var imdb: String?
    }

    /// What an item says, in the order the files of a ZIP are read: what was seen (the watched list,
    /// then the dated history), then ratings, then the watchlist, as with Letterboxd's export.
    enum Kind: Int, Comparable {
        case watched, history, ratings, watchlist

        init?(_ item: Item) {
            if item.watchedAt != nil {
                self = .history
            } else if item.lastWatchedAt != nil {
                self = .watched
            } else if item.ratedAt != nil || item.rating != nil {
                self = .ratings
            } else if item.listedAt != nil {
                self = .watchlist
            } else {
                return nil
            }
        }

        static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The row an item gives.
    static func row(_ item: Item) throws(Unusable) -> ImportRow {
        guard item.type == nil || item.type == "movie", let movie = item.movie else {
            let other =
                item.episode != nil ? "episode" : item.season != nil ? "season" : item.show != nil ? "show" : nil
            throw Unusable("not a movie (\(item.type ?? other ?? "no movie in it"))")
        }
        var row = ImportRow(line: 0, title: movie.title, year: movie.year.flatMap { RowValues.year(String($0)) })
        if let id = movie.ids?.tmdb { row.tmdb = try RowValues.tmdbID(String(id), column: "ids.tmdb") }
        row.imdb = try RowValues.imdbID(movie.ids?.imdb.flatMap { $0.isEmpty ? nil : $0 })
        switch Kind(item) {
        case .history:
            row.seen = true
            row.seenOn = try RowValues.day(item.watchedAt, column: "watched_at")
        case .watched:
            row.seen = true
            row.seenOn = try RowValues.day(item.lastWatchedAt, column: "last_watched_at")
        case .ratings:
            guard let rating = item.rating, let whole = Int(exactly: rating), (1...10).contains(whole) else {
                throw Unusable("its rating is not 1 to 10")
            }
            row.rating = whole
        case .watchlist: row.want = true
        case nil: throw Unusable("neither listed, watched nor rated")
        }
        return row
    }

    /// The items of one file, an array of objects, decoded one at a time: each is checked, the first `keep`
    /// are kept and the rest only counted, so that a file of millions of `{}` holds no more items than the row
    /// limit (`peerctl import` of a 32 MiB one peaked at 3.2 GB as `[Item]`, at 0.65 GB so: JSONDecoder's own).
    struct Items: Decodable {
        static let keep = CodingUserInfoKey(rawValue: "keep")!

        var kept: [Item] = []
        var count = 0
        /// What the first item that says so says.
        var firstKind: Kind?

        init(from decoder: any Decoder) throws {
            let keep = decoder.userInfo[Self.keep] as? Int ?? .max
            var array = try decoder.unkeyedContainer()
            while !array.isAtEnd {
                let item = try array.decode(Item.self)
                if firstKind == nil { firstKind = Kind(item) }
                if kept.count < keep { kept.append(item) }
                count += 1
            }
        }
    }

    /// The items of one file, which must be an array of objects; the first `keep` of them kept.
    static func items(_ text: String, place: String, keep: Int) throws(ImportError) -> Items {
        let decoder = JSONDecoder()
        decoder.userInfo[Items.keep] = keep
        do {
            return try decoder.decode(Items.self, from: Data(text.utf8))
        } catch {
            throw .unreadableJSON(place: place, format: .traktJSON, reason: JSONReason.of(error))
        }
    }

    /// Every item of `items` into `tally`, as the rows of `file`.
    static func add(_ items: Items, file: String?, into tally: inout RowTally) {
        for (index, item) in items.kept.prefix(tally.budget).enumerated() {
            tally.add(file: file, line: index + 1, title: item.movie?.title) { () throws(Unusable) in try row(item) }
        }
        tally.count(items.count)
    }

    /// Reads the JSON files of a Trakt export ZIP: each that is an array of items Trakt writes, in the
    /// order of ``Kind`` (by its first item), then of their paths. Other files (the profile, lists,
    /// collections) are ignored. Each file is decoded twice, once to order it and once to read it, so
    /// that no more than one is held at a time. Returns false when the ZIP has no such file.
    static func read(_ zip: ZipArchive, into tally: inout RowTally) throws(ImportError) -> Bool {
        var files: [(kind: Kind, path: String)] = []
        var records = 0
        for path in zip.paths where path.lowercased().hasSuffix(".json") && !path.hasPrefix("__MACOSX/") {
            let place = "\(zip.place): \(path)"
            let text = try UTF8Text.decode(try zip.read(path), place: place)
            guard let items = try? items(text, place: place, keep: 0), let kind = items.firstKind else { continue }
            files.append((kind, path))
            records += items.count
        }
        guard records <= tally.maxRows else {
            throw .tooManyRows(place: zip.place, rows: records, limit: tally.maxRows)
        }
        for (_, path) in files.sorted(by: { ($0.kind, $0.path) < ($1.kind, $1.path) }) {
            let place = "\(zip.place): \(path)"
            let text = try UTF8Text.decode(try zip.read(path), place: place)
            add(try items(text, place: place, keep: tally.budget), file: path, into: &tally)
        }
        return !files.isEmpty
    }
}
