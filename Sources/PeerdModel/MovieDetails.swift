/// What The Movie Database says about a movie, as a `describe` operation carries it to every peer
/// (proto/PEER.md, "Describing a movie"). A peer with a TMDB token fetches it once; every peer shows
/// it, with a token or without. Immutable and shared: the operation, the list and every row hold
/// the same instance. Its fields, and their JSON, are ``Fields``.
@dynamicMemberLookup
package final class MovieDetails: Hashable, Sendable, Codable, CustomStringConvertible {
    package static let maxTitleLength = 300
    package static let maxOverviewLength = 1_000
    package static let maxGenres = 20
    package static let maxGenreLength = 64
    package static let maxPathLength = 300

    /// Every field, read through this value's members (`details.title`) as well.
    package let fields: Fields

    package init(_ fields: Fields) {
        self.fields = fields
    }

    package subscript<Value>(dynamicMember field: KeyPath<Fields, Value>) -> Value {
        fields[keyPath: field]
    }

    /// The JSON of ``Fields``.
    package convenience init(from decoder: any Decoder) throws {
        self.init(try Fields(from: decoder))
    }

    package func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
    }

    /// An overview cut to ``maxOverviewLength`` characters, ending with `…` when it was cut.
    package static func capped(overview: String) -> String {
        guard overview.unicodeScalars.count > maxOverviewLength else { return overview }
        var scalars = String.UnicodeScalarView(overview.unicodeScalars.prefix(maxOverviewLength - 1))
        scalars.append("…")
        return String(scalars)
    }

    package var description: String { "\(fields.title)\(fields.year.map { " (\($0))" } ?? "")" }

    package static func == (lhs: MovieDetails, rhs: MovieDetails) -> Bool {
        lhs === rhs || lhs.fields == rhs.fields
    }

    /// A few fields only: equal details hash alike, and these tell most details apart.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(fields.title)
        hasher.combine(fields.releaseDate)
        hasher.combine(fields.fetchedAt)
    }
}

/// What can be told from the fields alone, read through ``MovieDetails`` too (`details.year`).
extension MovieDetails.Fields {
    /// The year of the release date.
    package var year: Int? { releaseDate.flatMap { Int($0.prefix(4)) } }

    /// Why these details can't be stored, or nil when they can.
    package var invalidReason: String? {
        if title.isEmpty || title.unicodeScalars.count > MovieDetails.maxTitleLength {
            return "a title is 1 to 300 characters"
        }
        if let originalTitle, originalTitle.unicodeScalars.count > MovieDetails.maxTitleLength {
            return "an original title is at most 300 characters"
        }
        if let overview, overview.unicodeScalars.count > MovieDetails.maxOverviewLength {
            return "an overview is at most \(MovieDetails.maxOverviewLength) characters"
        }
        if genres.count > MovieDetails.maxGenres
            || genres.contains(where: { $0.isEmpty || $0.count > MovieDetails.maxGenreLength })
        {
            return "at most \(MovieDetails.maxGenres) genres of 1 to \(MovieDetails.maxGenreLength) characters"
        }
        if let releaseDate, !Self.isDate(releaseDate) { return "a release date is YYYY-MM-DD" }
        if let runtime, !(0...10_000).contains(runtime) { return "a runtime is 0 to 10000 minutes" }
        if let voteAverage, !(0...1_000).contains(voteAverage) { return "a vote average is 0 to 1000 hundredths" }
        if let posterPath, !posterPath.hasPrefix("/") || posterPath.utf8.count > MovieDetails.maxPathLength {
            return "a poster path starts with / and is at most \(MovieDetails.maxPathLength) bytes"
        }
        if let imdbID, !Self.isIMDbID(imdbID) { return "an IMDb id is tt and 1 to 12 digits" }
        if let reason = providers?.invalidReason { return reason }
        if language.isEmpty || language.utf8.count > 35 { return "a language is 1 to 35 bytes" }
        return nil
    }

    private static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 3 && parts.map(\.count) == [4, 2, 2]
            && parts.allSatisfy { $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    private static func isIMDbID(_ text: String) -> Bool {
        text.hasPrefix("tt") && (3...14).contains(text.count)
            && text.dropFirst(2).allSatisfy { $0.isASCII && $0.isNumber }
    }
}
