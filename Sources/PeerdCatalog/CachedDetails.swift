import PeerdModel

/// A cache file's JSON (``DetailsCache``).
struct CachedDetails: Codable {
    static let currentVersion = 1

    var version = currentVersion
    var movie: MovieID
    var details: Fields

    init(movie: MovieID, details: Fields) {
        self.movie = movie
        self.details = details
    }

    /// The details' fields under the names a describe gives them (proto/PEER.md).
    struct Fields: Codable {
        var title: String
        var originalTitle: String?
        var releaseDate: String?
        var runtime: Int?
        var genres: [String]
        var overview: String?
        var posterPath: String?
        var voteAverage: Int?
        var imdbId: String?
        var language: String
        var fetchedAt: Int64

        init(_ details: MovieDetails) {
            title = details.title
            originalTitle = details.originalTitle
            releaseDate = details.releaseDate
            runtime = details.runtime
            genres = details.genres
            overview = details.overview
            posterPath = details.posterPath
            voteAverage = details.voteAverage
            imdbId = details.imdbID
            language = details.language
            fetchedAt = details.fetchedAt
        }

        var details: MovieDetails {
            MovieDetails(
                title: title,
                originalTitle: originalTitle,
                releaseDate: releaseDate,
                runtime: runtime,
                genres: genres,
                overview: overview,
                posterPath: posterPath,
                voteAverage: voteAverage,
                imdbID: imdbId,
                language: language,
                fetchedAt: fetchedAt
            )
        }
    }
}

/// `configuration.json`.
struct CachedConfiguration: Codable {
    var version = 1
    var imageBase: String
}
