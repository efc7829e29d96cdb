package import PeerdModel

/// One page of TMDB's search results, as TMDB pages them (up to 20 a page).
package struct SearchPage: Hashable, Sendable {
    /// 1-based.
    package var page: Int
    package var totalPages: Int
    package var totalResults: Int
    package var results: [SearchResult]

    package init(page: Int, totalPages: Int, totalResults: Int, results: [SearchResult]) {
        self.page = page
        self.totalPages = totalPages
        self.totalResults = totalResults
        self.results = results
    }
}

/// One movie in a search page: what `search` shows before anyone adds it.
package struct SearchResult: Hashable, Sendable {
    package var movie: MovieID
    package var title: String
    package var originalTitle: String?
    package var year: Int?
    /// Cut to 1 000 characters like a describe's (``MovieDetails/capped(overview:)``).
    package var overview: String?
    package var posterPath: String?
    /// Hundredths: 822 is 8.22 of 10.
    package var voteAverage: Int?

    package init(
        movie: MovieID,
        title: String,
        originalTitle: String? = nil,
        year: Int? = nil,
        overview: String? = nil,
        posterPath: String? = nil,
        voteAverage: Int? = nil
    ) {
        self.movie = movie
        self.title = title
        self.originalTitle = originalTitle
        self.year = year
        self.overview = overview
        self.posterPath = posterPath
        self.voteAverage = voteAverage
    }
}
