package import PeerdModel
package import SystemPackage

/// Fetched details on disk, in a folder of the state directory, so a restart never fetches again
/// what it already has.
///
/// ```
/// <cache>/                     mode 0700
///     movie-603.en-US.json     {"details":{…},"movie":603,"version":1}, mode 0600
///     configuration.json       {"imageBase":"https://image.tmdb.org/t/p/w500","version":1}
/// ```
///
/// Each file is small and written atomically (``CacheFolder``). A file that cannot be read back as
/// valid details of that movie in that language is ignored, so the movie is fetched again.
package struct DetailsCache: Sendable {
    package let directory: FilePath
    let folder: CacheFolder

    package init(directory: FilePath) {
        self.directory = directory
        folder = CacheFolder(directory)
    }

    /// The cached details of `movie` in `language`, or nil when there are none (or none readable).
    package func details(of movie: MovieID, language: String) -> MovieDetails? {
        guard let name = name(of: movie, language: language),
            let entry = folder.read(CachedDetails.self, named: name),
            entry.version == CachedDetails.currentVersion, entry.movie == movie
        else { return nil }
        let details = entry.details
        guard details.language == language, details.invalidReason == nil else { return nil }
        return details
    }

    /// Saves `details` of `movie`, replacing what was there.
    package func store(_ details: MovieDetails, of movie: MovieID) throws(CatalogError) {
        guard let name = name(of: movie, language: details.language) else {
            throw .cacheUnwritable(directory, reason: "the language \(details.language) is not a language tag")
        }
        try folder.write(CachedDetails(movie: movie, details: details), named: name)
    }

    /// The poster base URL from `/3/configuration`, once fetched.
    package func imageBase() -> String? {
        folder.read(CachedConfiguration.self, named: "configuration.json")?.imageBase
    }

    package func storeImageBase(_ base: String) throws(CatalogError) {
        try folder.write(CachedConfiguration(imageBase: base), named: "configuration.json")
    }

    private func name(of movie: MovieID, language: String) -> String? {
        guard CatalogSettings.isLanguage(language) else { return nil }
        return "movie-\(movie.rawValue).\(language).json"
    }
}
