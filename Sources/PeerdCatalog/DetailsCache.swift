import PeerdLoops
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
/// valid details of that movie in that language is ignored, so the movie is fetched again. Reads
/// and writes run on the ``BlockingPool``, never on an event loop.
package struct DetailsCache: Sendable {
    package let directory: FilePath
    let folder: CacheFolder

    package init(directory: FilePath) {
        self.directory = directory
        folder = CacheFolder(directory)
    }

    /// The cached details of `movie` in `language`, or nil when there are none (or none readable).
    package func details(of movie: MovieID, language: String) async -> MovieDetails? {
        guard let name = name(of: movie, language: language) else { return nil }
        let folder = self.folder
        return await BlockingPool.run { () -> MovieDetails? in
            guard let entry = folder.read(CachedDetails.self, named: name),
                entry.version == CachedDetails.currentVersion, entry.movie == movie
            else { return nil }
            let details = entry.details
            guard details.language == language, details.invalidReason == nil else { return nil }
            return details
        }
    }

    /// Saves `details` of `movie`, replacing what was there.
    package func store(_ details: MovieDetails, of movie: MovieID) async throws(CatalogError) {
        guard let name = name(of: movie, language: details.language) else {
            throw .cacheUnwritable(directory, reason: "the language \(details.language) is not a language tag")
        }
        let folder = self.folder
        try await BlockingPool.run { () throws(CatalogError) in
            try folder.write(CachedDetails(movie: movie, details: details), named: name)
        }
    }

    /// The poster base URL from `/3/configuration`, once fetched.
    package func imageBase() async -> String? {
        let folder = self.folder
        return await BlockingPool.run { folder.read(CachedConfiguration.self, named: "configuration.json")?.imageBase }
    }

    package func storeImageBase(_ base: String) async throws(CatalogError) {
        let folder = self.folder
        try await BlockingPool.run { () throws(CatalogError) in
            try folder.write(CachedConfiguration(imageBase: base), named: "configuration.json")
        }
    }

    private func name(of movie: MovieID, language: String) -> String? {
        guard CatalogSettings.isLanguage(language) else { return nil }
        return "movie-\(movie.rawValue).\(language).json"
    }
}
