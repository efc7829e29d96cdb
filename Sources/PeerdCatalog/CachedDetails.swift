import PeerdModel

/// A cache file's JSON (``DetailsCache``): the details in their one JSON form, the one a describe
/// carries (``MovieDetails/Fields``), and the movie's certifications when they were fetched with them.
struct CachedDetails: Codable {
    static let currentVersion = 1

    var version = currentVersion
    var movie: MovieID
    var details: MovieDetails
    /// Absent in a file written before peerd knew certifications (the same version: a reader ignores what it
    /// doesn't know, and takes an absent one as unknown).
    var certifications: MovieCertifications?

    init(movie: MovieID, details: MovieDetails, certifications: MovieCertifications?) {
        self.movie = movie
        self.details = details
        self.certifications = certifications
    }
}

/// `certifications.json`.
struct CachedOrders: Codable {
    var version = 1
    var orders: Certifications
}

/// `configuration.json`.
struct CachedConfiguration: Codable {
    var version = 1
    var imageBase: String
}
