import PeerdModel

/// A cache file's JSON (``DetailsCache``): the details in their one JSON form, the one a describe
/// carries (``MovieDetails/Fields``).
struct CachedDetails: Codable {
    static let currentVersion = 1

    var version = currentVersion
    var movie: MovieID
    var details: MovieDetails

    init(movie: MovieID, details: MovieDetails) {
        self.movie = movie
        self.details = details
    }
}

/// `configuration.json`.
struct CachedConfiguration: Codable {
    var version = 1
    var imageBase: String
}
