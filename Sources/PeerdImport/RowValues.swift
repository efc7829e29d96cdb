import PeerdModel
import PeerdWire

/// Why a record gives no row; it becomes a ``SkippedRow`` with this reason.
struct Unusable: Error {
    let reason: String

    init(_ reason: String) { self.reason = reason }
}

/// The values of a record, read the same way in every format.
enum RowValues {
    /// A title, refused past ``Movie/maxTitleLength`` characters (Unicode scalars, as the model counts).
    static func title(_ text: String?) throws(Unusable) -> String? {
        guard let text else { return nil }
        guard text.unicodeScalars.count <= Movie.maxTitleLength else {
            throw Unusable("the title is longer than \(Movie.maxTitleLength) characters")
        }
        return text
    }

    /// A release year: the first four digits of `1999` or `1999-03-31`. Anything else, and a year
    /// outside 1870…9999 (the model's range), is no year: the row stays, as if the year were missing.
    static func year(_ text: String?) -> Int? {
        guard let text, text.utf8.count >= 4, let year = Int(text.prefix(4)), (1870...9999).contains(year) else {
            return nil
        }
        return text.utf8.count == 4 || text.dropFirst(4).hasPrefix("-") ? year : nil
    }

    /// A day, `YYYY-MM-DD`, from a date or the start of a timestamp (`2023-01-05T21:13:00.000Z`: the
    /// day in UTC, as the timestamp says it).
    static func day(_ text: String?, column: String) throws(Unusable) -> String? {
        guard let text else { return nil }
        let day = String(text.prefix(10))
        guard Day.isDay(day), text.utf8.count == 10 || text.dropFirst(10).hasPrefix("T") else {
            throw Unusable("\(column) \"\(text)\" is not a date (YYYY-MM-DD)")
        }
        return day
    }

    /// Letterboxd's stars, 0.5 to 5 in halves, as peerd's 1 to 10: stars × 2, so 0.5 is 1 and 5 is 10.
    static func stars(_ text: String, column: String = "Rating") throws(Unusable) -> Int {
        guard let stars = Double(text), (0.5...5).contains(stars), (stars * 2).rounded() == stars * 2 else {
            throw Unusable("\(column) \"\(text)\" is not 0.5 to 5 stars in halves")
        }
        return Int(stars * 2)
    }

    /// A rating of 1 to 10, a whole number (IMDb's, Trakt's, peerd's).
    static func rating10(_ text: String, column: String) throws(Unusable) -> Int {
        guard let rating = Int(text), (1...10).contains(rating) else {
            throw Unusable("\(column) \"\(text)\" is not a rating from 1 to 10")
        }
        return rating
    }

    /// TMDB's rating, 0.5 to 10 (`7.0`, `7.5`), rounded half up to peerd's whole 1 to 10: 7.5 is 8, 0.5 is 1.
    static func roundedRating(_ text: String, column: String) throws(Unusable) -> Int {
        guard let rating = Double(text), rating.isFinite, rating >= 0.5, rating <= 10 else {
            throw Unusable("\(column) \"\(text)\" is not a rating from 0.5 to 10")
        }
        return Int((rating + 0.5).rounded(.down))
    }

    /// An IMDb id: `tt` and 7 to 10 digits.
    static func imdbID(_ text: String?) throws(Unusable) -> String? {
        guard let text else { return nil }
        let digits = text.utf8.dropFirst(2)
        guard text.hasPrefix("tt"), (7...10).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) })
        else { throw Unusable("\"\(text)\" is not an IMDb id (tt and 7 to 10 digits)") }
        return text
    }

    /// A TMDB movie id: a positive whole number.
    static func tmdbID(_ text: String?, column: String) throws(Unusable) -> Int? {
        guard let text else { return nil }
        guard let id = Int(text), id > 0 else { throw Unusable("\(column) \"\(text)\" is not a TMDB id") }
        return id
    }

    /// peerd's CSV flags: `yes` is true, empty is false (so is `no`); anything else is refused.
    static func flag(_ text: String?, column: String) throws(Unusable) -> Bool {
        switch text?.lowercased() {
        case nil, "no": return false
        case "yes": return true
        case let other?: throw Unusable("\(column) \"\(other)\" is neither yes nor empty")
        }
    }

    /// Checks that the row names a movie somehow (an id, or a title) and that its title fits.
    static func checked(_ row: ImportRow) throws(Unusable) -> ImportRow {
        guard row.tmdb != nil || row.imdb != nil || row.title != nil else {
            throw Unusable("it has no title and no id")
        }
        _ = try title(row.title)
        return row
    }
}
