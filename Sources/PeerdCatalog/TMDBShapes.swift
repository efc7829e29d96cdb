/// TMDB's JSON as it comes, read with `convertFromSnakeCase`: only the fields peerd uses, optional
/// where TMDB may send `null` or leave them out.
enum TMDBShapes {
    struct Movie: Decodable {
        var id: Int
        var title: String?
        var originalTitle: String?
        var releaseDate: String?
        var runtime: Int?
        var genres: [Genre]?
        var overview: String?
        var posterPath: String?
        var voteAverage: Double?
        var voteCount: Int?
        var imdbId: String?
    }

    /// What `append_to_response=watch/providers` adds to `/3/movie/{id}`.
    struct Appended: Decodable {
        var watchProviders: WatchProviderResults?

        enum CodingKeys: String, CodingKey {
            case watchProviders = "watch/providers"
        }
    }

    /// What `append_to_response=release_dates` adds to `/3/movie/{id}`.
    struct AppendedReleaseDates: Decodable {
        var releaseDates: ReleaseDates?
    }

    /// `/3/movie/{id}/release_dates`: each country's releases.
    struct ReleaseDates: Decodable {
        var results: [CountryReleases]?
    }

    struct CountryReleases: Decodable {
        /// `iso_3166_1`, as `convertFromSnakeCase` reads it.
        var iso31661: String?
        var releaseDates: [ReleaseDate]?
    }

    struct ReleaseDate: Decodable {
        var certification: String?
        var type: Int?
    }

    /// `/3/certification/movie/list`: each country's certifications.
    struct CertificationList: Decodable {
        var certifications: [String: [Certification]]
    }

    struct Certification: Decodable {
        var certification: String?
        var order: Int?
    }

    struct WatchProviderResults: Decodable {
        var results: [String: RegionOffers]?
    }

    struct RegionOffers: Decodable {
        var link: String?
        var flatrate: [Offer]?
        var rent: [Offer]?
        var buy: [Offer]?
    }

    struct Offer: Decodable {
        var providerId: Int?
        var providerName: String?
        var logoPath: String?
        var displayPriority: Int?
    }

    /// `/3/watch/providers/movie`.
    struct ProviderList: Decodable {
        var results: [RegionProvider]
    }

    struct RegionProvider: Decodable {
        var providerId: Int?
        var providerName: String?
        var logoPath: String?
        var displayPriority: Int?
        var displayPriorities: [String: Int]?
    }

    struct Genre: Decodable {
        var id: Int?
        var name: String?
    }

    struct GenreList: Decodable {
        var genres: [Genre]
    }

    /// `/3/find/{id}`: the movies (and people, shows) under an external id; only movies are read.
    struct FoundByExternalID: Decodable {
        var movieResults: [SearchResult]
    }

    struct SearchPage: Decodable {
        var page: Int
        var results: [SearchResult]
        var totalPages: Int
        var totalResults: Int
    }

    struct SearchResult: Decodable {
        var id: Int
        var title: String?
        var originalTitle: String?
        var releaseDate: String?
        var overview: String?
        var posterPath: String?
        var voteAverage: Double?
        var voteCount: Int?
    }

    struct Configuration: Decodable {
        var images: Images
    }

    struct Images: Decodable {
        var secureBaseUrl: String?
        var posterSizes: [String]?
    }

    struct Status: Decodable {
        var statusCode: Int?
        var statusMessage: String?
    }

    /// What is wrong, in a few words: "results[3].id: expected Int", "total_pages: missing".
    static func reason(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, let context):
            return "\(location(context.codingPath)): expected \(type)"
        case .valueNotFound(let type, let context):
            return "\(location(context.codingPath)): null where \(type) belongs"
        case .keyNotFound(let key, let context):
            return "\(location(context.codingPath + [key])): missing"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "it is not JSON" : "\(location(context.codingPath)): not readable"
        @unknown default:
            return "it is not TMDB's JSON"
        }
    }

    private static func location(_ path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "the body" }
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text
    }
}
