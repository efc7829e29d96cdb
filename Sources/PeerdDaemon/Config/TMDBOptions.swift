package import PeerdCatalog
package import SystemPackage

/// How to reach The Movie Database: from `--tmdb-token-file`, `--tmdb-url`, `--tmdb-language` or
/// the config file's `tmdbTokenFile`, `tmdbUrl`, `tmdbLanguage` (README "Movie details").
package struct TMDBOptions: Sendable {
    /// The token file; nil means `TMDB_TOKEN`, else the default file if it exists.
    package var tokenFile: String?
    package var url = CatalogSettings.defaultBaseURL
    package var language = CatalogSettings.defaultLanguage
    /// `--no-tmdb`: never call TMDB, even with a token at hand.
    package var disabled = false
    /// Everything the catalog needs, once a token was found (in `tokenFile`, `TMDB_TOKEN` or the
    /// default file) and the URL and language checked; nil: this daemon never calls TMDB.
    package var settings: CatalogSettings?

    package init() {}

    /// Reads the token and checks the URL and language: nil without a token or with `--no-tmdb`;
    /// a token file others can read, a bad URL or language throws what to fix.
    package func loadSettings(
        cacheDirectory: FilePath,
        environment: [String: String]
    ) throws(CatalogError) -> CatalogSettings? {
        guard !disabled,
            let credential = try TMDBCredential.load(file: tokenFile.map { FilePath($0) }, environment: environment)
        else { return nil }
        return try CatalogSettings(
            credential: credential,
            cacheDirectory: cacheDirectory,
            baseURL: url,
            language: language
        )
    }
}
