package import PeerdModel

/// The JSON of a describe's `details` (proto/schemas/defs/movie-details.schema.json) for `Codable`,
/// the reference path: `MovieDetails` is a class, so it is read and written through this value.
struct MovieDetailsJSON: Codable {
    var fetchedAt: Int64
    var genres: [String]?
    var imdbId: String?
    var language: String
    var originalTitle: String?
    var overview: String?
    var posterPath: String?
    var releaseDate: String?
    var runtime: Int?
    var title: String
    var voteAverage: Int?

    init(_ details: MovieDetails) {
        fetchedAt = details.fetchedAt
        genres = details.genres.isEmpty ? nil : details.genres
        imdbId = details.imdbID
        language = details.language
        originalTitle = details.originalTitle
        overview = details.overview
        posterPath = details.posterPath
        releaseDate = details.releaseDate
        runtime = details.runtime
        title = details.title
        voteAverage = details.voteAverage
    }

    var details: MovieDetails {
        MovieDetails(
            title: title,
            originalTitle: originalTitle,
            releaseDate: releaseDate,
            runtime: runtime,
            genres: genres ?? [],
            overview: overview,
            posterPath: posterPath,
            voteAverage: voteAverage,
            imdbID: imdbId,
            language: language,
            fetchedAt: fetchedAt
        )
    }
}
