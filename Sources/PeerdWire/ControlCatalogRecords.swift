package import PeerdModel

/// One of TMDB's pages of movies (up to 20 results; `page` is 1-based), as the catalog reads it:
/// a `searchResults` response (proto/CONTROL.md, "search"), whose `query` is the words searched
/// for, or a `movies` response ("discover", "similar"), whose `query` names the list.
package struct SearchResultsRecord: Hashable, Sendable, Codable {
    package var query: String
    package var page: Int
    package var totalPages: Int
    package var totalResults: Int
    package var results: [SearchResultRecord]
    /// When TMDB gave this page (ms since 1970), on a page kept on disk (``CatalogShelf``).
    package var fetchedAt: Int64?
    /// Why this kept page is shown and not a fresh one, when a fresh one could not be had.
    package var stale: String?
    /// On a list with a ceiling (proto/PEER.md, "Ceilings"): how many of TMDB's results on this page
    /// were left out, certified above it or with no certification known in the group's region.
    package var leftOut: Int?

    package init(
        query: String,
        page: Int,
        totalPages: Int,
        totalResults: Int,
        results: [SearchResultRecord],
        fetchedAt: Int64? = nil,
        stale: String? = nil
    ) {
        self.query = query
        self.page = page
        self.totalPages = totalPages
        self.totalResults = totalResults
        self.results = results
        self.fetchedAt = fetchedAt
        self.stale = stale
    }
}

/// One of TMDB's movie genres: `discover --genre` takes its id or its name.
package struct GenreRecord: Hashable, Sendable, Codable {
    package var id: Int
    package var name: String

    package init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

/// A `genres` response (proto/CONTROL.md, "genres"), with the age of a list kept on disk.
package struct GenresRecord: Hashable, Sendable, Codable {
    package var genres: [GenreRecord]
    package var fetchedAt: Int64?
    package var stale: String?

    package init(genres: [GenreRecord], fetchedAt: Int64? = nil, stale: String? = nil) {
        self.genres = genres
        self.fetchedAt = fetchedAt
        self.stale = stale
    }
}

/// One search result.
package struct SearchResultRecord: Hashable, Sendable, Codable {
    package var movieId: Int
    package var title: String
    package var originalTitle: String?
    package var year: Int?
    /// Cut to 1,000 characters like a describe's (``MovieDetails/capped(overview:)``).
    package var overview: String?
    package var posterPath: String?
    /// Hundredths of a point: 822 is 8.22 of 10.
    package var voteAverage: Int?

    package init(
        movieId: Int,
        title: String,
        originalTitle: String? = nil,
        year: Int? = nil,
        overview: String? = nil,
        posterPath: String? = nil,
        voteAverage: Int? = nil
    ) {
        self.movieId = movieId
        self.title = title
        self.originalTitle = originalTitle
        self.year = year
        self.overview = overview
        self.posterPath = posterPath
        self.voteAverage = voteAverage
    }
}

/// A describe's details as `show` answers them: the details' own JSON (``MovieDetails``, the form a
/// describe carries) with the poster's full URL beside their fields.
@dynamicMemberLookup
package struct DetailsRecord: Hashable, Sendable, Codable {
    package var details: MovieDetails
    package var posterURL: String?

    package init(_ details: MovieDetails, posterURL: String?) {
        self.details = details
        self.posterURL = posterURL
    }

    package subscript<Value>(dynamicMember field: KeyPath<MovieDetails.Fields, Value>) -> Value {
        details.fields[keyPath: field]
    }

    /// The key beside the details' own.
    private enum CodingKeys: String, CodingKey {
        case posterURL
    }

    package init(from decoder: any Decoder) throws {
        details = try MovieDetails(from: decoder)
        posterURL = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .posterURL)
    }

    package func encode(to encoder: any Encoder) throws {
        try details.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(posterURL, forKey: .posterURL)
    }
}

/// Which describe a movie's details came from.
package struct DescribedByRecord: Hashable, Sendable, Codable {
    package var operation: OperationID
    package var peer: PeerID
    package var name: String
    /// When the describe was made, milliseconds since 1970.
    package var at: Int64

    package init(_ describe: Operation) {
        operation = describe.id
        peer = describe.id.origin
        name = describe.by
        at = describe.at
    }
}

/// A `shown` response (proto/CONTROL.md, "show").
package struct ShownRecord: Hashable, Sendable, Codable {
    /// The row, when the movie is listed.
    package var movie: MovieRecord?
    package var details: DetailsRecord?
    package var describedBy: DescribedByRecord?
    /// Why there are no details yet, when there are none.
    package var pending: String?
    /// A movie not on the list: its title and year as the group last gave them, and each member's
    /// marks on it (a listed movie's are in `movie`).
    package var offList: OffListRecord?

    package init(
        movie: MovieRecord?,
        details: DetailsRecord?,
        describedBy: DescribedByRecord?,
        pending: String?,
        offList: OffListRecord? = nil
    ) {
        self.movie = movie
        self.details = details
        self.describedBy = describedBy
        self.pending = pending
        self.offList = offList
    }
}

/// A movie that is not on the list, as `show` tells of it: marks are kept whether or not it is.
package struct OffListRecord: Hashable, Sendable, Codable {
    package var title: String?
    package var year: Int?
    /// Each member's marks, by member id; absent when nobody marked it.
    @OmittedWhenEmpty package var marks: [MarkRecord] = []
    /// The members' average rating, to one decimal.
    package var averageRating: Double?

    package init(title: String?, year: Int?, marks: [MemberMarks]) {
        self.title = title
        self.year = year
        self.marks = marks.map(MarkRecord.init)
        averageRating = marks.averageRating.map { ($0 * 10).rounded() / 10 }
    }
}
