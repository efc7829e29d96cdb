package import PeerdCatalog

/// How to reach The Movie Database: from `--tmdb-token-file`, `--tmdb-url`, `--tmdb-language` or
/// the config file's `tmdbTokenFile`, `tmdbUrl`, `tmdbLanguage` (README "Movie details").
package struct TMDBOptions: Sendable {
    package static let defaultURL = "https://api.themoviedb.org"
    package static let defaultLanguage = "en-US"

    /// The token file; nil means `TMDB_TOKEN`, else the default file if it exists.
    package var tokenFile: String?
    package var url = defaultURL
    package var language = defaultLanguage
    /// `--no-tmdb`: never call TMDB, even with a token at hand.
    package var disabled = false
    /// Everything the catalog needs, once a token was found (in `tokenFile`, `TMDB_TOKEN` or the
    /// default file) and the URL and language checked; nil: this daemon never calls TMDB.
    package var settings: CatalogSettings?

    package init() {}
}
