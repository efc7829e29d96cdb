package import PeerdModel

/// A `searchResults` response (proto/CONTROL.md, "search"): one of TMDB's pages (up to 20 results;
/// `page` is 1-based), as the catalog reads it from TMDB.
package struct SearchResultsRecord: Hashable, Sendable, Codable {
    package var query: String
    package var page: Int
    package var totalPages: Int
    package var totalResults: Int
    package var results: [SearchResultRecord]

    package init(query: String, page: Int, totalPages: Int, totalResults: Int, results: [SearchResultRecord]) {
        self.query = query
        self.page = page
        self.totalPages = totalPages
        self.totalResults = totalResults
        self.results = results
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

/// A describe's details as `show` answers them, with the poster's full URL.
package struct DetailsRecord: Hashable, Sendable, Codable {
    package var title: String
    package var originalTitle: String?
    package var releaseDate: String?
    package var runtime: Int?
    package var genres: [String]?
    package var overview: String?
    package var posterPath: String?
    package var posterURL: String?
    package var voteAverage: Int?
    package var imdbId: String?
    package var language: String
    package var fetchedAt: Int64

    package init(_ details: MovieDetails, posterURL: String?) {
        title = details.title
        originalTitle = details.originalTitle
        releaseDate = details.releaseDate
        runtime = details.runtime
        genres = details.genres.isEmpty ? nil : details.genres
        overview = details.overview
        posterPath = details.posterPath
        self.posterURL = posterURL
        voteAverage = details.voteAverage
        imdbId = details.imdbID
        language = details.language
        fetchedAt = details.fetchedAt
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

    package init(
        movie: MovieRecord?,
        details: DetailsRecord?,
        describedBy: DescribedByRecord?,
        pending: String?
    ) {
        self.movie = movie
        self.details = details
        self.describedBy = describedBy
        self.pending = pending
    }
}
