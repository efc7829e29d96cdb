/// What The Movie Database says about a movie, as a `describe` operation carries it to every peer
/// (proto/PEER.md, "Describing a movie"). A peer with a TMDB token fetches it once; every peer shows
/// it, with a token or without. Immutable and shared: the operation, the list and every row hold
/// the same instance.
package final class MovieDetails: Hashable, Sendable, CustomStringConvertible {
    package static let maxTitleLength = 300
    package static let maxOverviewLength = 1_000
    package static let maxGenres = 20
    package static let maxGenreLength = 64
    package static let maxPathLength = 300

    package let title: String
    package let originalTitle: String?
    /// `YYYY-MM-DD`, when known.
    package let releaseDate: String?
    /// Minutes.
    package let runtime: Int?
    package let genres: [String]
    /// At most ``maxOverviewLength`` characters: a longer one is cut and ends with `…`.
    package let overview: String?
    /// The path of the poster on TMDB's image server, e.g. `/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg`.
    package let posterPath: String?
    /// TMDB's average rating in hundredths of a point: 822 is 8.22 out of 10. (Operations hold
    /// integers only: a fraction has no one canonical text.)
    package let voteAverage: Int?
    /// `tt0133093`.
    package let imdbID: String?
    /// The language TMDB was asked for, e.g. `en-US`.
    package let language: String
    /// When it was fetched, milliseconds since 1970.
    package let fetchedAt: Int64

    package init(
        title: String,
        originalTitle: String? = nil,
        releaseDate: String? = nil,
        runtime: Int? = nil,
        genres: [String] = [],
        overview: String? = nil,
        posterPath: String? = nil,
        voteAverage: Int? = nil,
        imdbID: String? = nil,
        language: String,
        fetchedAt: Int64
    ) {
        self.title = title
        self.originalTitle = originalTitle
        self.releaseDate = releaseDate
        self.runtime = runtime
        self.genres = genres
        self.overview = overview
        self.posterPath = posterPath
        self.voteAverage = voteAverage
        self.imdbID = imdbID
        self.language = language
        self.fetchedAt = fetchedAt
    }

    /// The year of the release date.
    package var year: Int? { releaseDate.flatMap { Int($0.prefix(4)) } }

    /// An overview cut to ``maxOverviewLength`` characters, ending with `…` when it was cut.
    package static func capped(overview: String) -> String {
        guard overview.unicodeScalars.count > maxOverviewLength else { return overview }
        var scalars = String.UnicodeScalarView(overview.unicodeScalars.prefix(maxOverviewLength - 1))
        scalars.append("…")
        return String(scalars)
    }

    /// Why these details can't be stored, or nil when they can.
    package var invalidReason: String? {
        if title.isEmpty || title.unicodeScalars.count > Self.maxTitleLength { return "a title is 1 to 300 characters" }
        if let originalTitle, originalTitle.unicodeScalars.count > Self.maxTitleLength {
            return "an original title is at most 300 characters"
        }
        if let overview, overview.unicodeScalars.count > Self.maxOverviewLength {
            return "an overview is at most \(Self.maxOverviewLength) characters"
        }
        if genres.count > Self.maxGenres || genres.contains(where: { $0.isEmpty || $0.count > Self.maxGenreLength }) {
            return "at most \(Self.maxGenres) genres of 1 to \(Self.maxGenreLength) characters"
        }
        if let releaseDate, !Self.isDate(releaseDate) { return "a release date is YYYY-MM-DD" }
        if let runtime, !(0...10_000).contains(runtime) { return "a runtime is 0 to 10000 minutes" }
        if let voteAverage, !(0...1_000).contains(voteAverage) { return "a vote average is 0 to 1000 hundredths" }
        if let posterPath, !posterPath.hasPrefix("/") || posterPath.utf8.count > Self.maxPathLength {
            return "a poster path starts with / and is at most \(Self.maxPathLength) bytes"
        }
        if let imdbID, !Self.isIMDbID(imdbID) { return "an IMDb id is tt and 1 to 12 digits" }
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

    package var description: String { "\(title)\(year.map { " (\($0))" } ?? "")" }

    package static func == (lhs: MovieDetails, rhs: MovieDetails) -> Bool {
        lhs === rhs
            || (lhs.title, lhs.originalTitle, lhs.releaseDate, lhs.runtime, lhs.genres, lhs.overview)
                == (rhs.title, rhs.originalTitle, rhs.releaseDate, rhs.runtime, rhs.genres, rhs.overview)
                && (lhs.posterPath, lhs.voteAverage, lhs.imdbID, lhs.language, lhs.fetchedAt)
                    == (rhs.posterPath, rhs.voteAverage, rhs.imdbID, rhs.language, rhs.fetchedAt)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(title)
        hasher.combine(releaseDate)
        hasher.combine(fetchedAt)
    }
}
