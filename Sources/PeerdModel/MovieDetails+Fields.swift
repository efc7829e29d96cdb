extension MovieDetails {
    /// A movie's details, field by field: the one place they are spelled out. Their one JSON form is
    /// this struct's synthesized `Codable` under ``CodingKeys`` (proto/schemas/defs/movie-details.schema.json):
    /// an absent optional is left out, and so is an empty `genres`. A describe carries it in canonical
    /// form (PeerdCodec), the details cache stores it and `show` answers it (PeerdWire's
    /// `DetailsRecord`), so a field added here reaches all three.
    ///
    /// The fields are `let`s (`genres` has its wrapper's storage) with no default value, so one left
    /// out of ``CodingKeys`` does not compile rather than silently leaving the JSON.
    package struct Fields: Hashable, Sendable, Codable {
        package let title: String
        package let originalTitle: String?
        /// `YYYY-MM-DD`, when known.
        package let releaseDate: String?
        /// Minutes.
        package let runtime: Int?
        /// In TMDB's order.
        @OmittedWhenEmpty package var genres: [String]
        /// At most ``MovieDetails/maxOverviewLength`` characters: a longer one is cut and ends with `…`.
        package let overview: String?
        /// The path of the poster on TMDB's image server, e.g. `/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg`.
        package let posterPath: String?
        /// TMDB's average rating in hundredths of a point: 822 is 8.22 out of 10. (Operations hold
        /// integers only: a fraction has no one canonical text.)
        package let voteAverage: Int?
        /// `tt0133093`.
        package let imdbID: String?
        /// Where to watch it in the region of the fetcher's language (`en-US`: US), when TMDB knows.
        package let providers: WatchProviders?
        /// The language TMDB was asked for, e.g. `en-US`.
        package let language: String
        /// When it was fetched, milliseconds since 1970.
        package let fetchedAt: Int64

        enum CodingKeys: String, CodingKey {
            case title, originalTitle, releaseDate, runtime, genres, overview, posterPath, voteAverage
            case imdbID = "imdbId"
            case providers, language, fetchedAt
        }

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
            providers: WatchProviders? = nil,
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
            self.providers = providers
            self.language = language
            self.fetchedAt = fetchedAt
        }
    }
}
