import PeerdLoops
package import PeerdModel
package import SystemPackage

/// Fetched details on disk, in a folder of the state directory, so a restart never fetches again
/// what it already has.
///
/// ```
/// <cache>/                     mode 0700
///     movie-603.en-US.json     {"certifications":{"US":"R",…},"details":{…},"movie":603,"version":1}, mode 0600
///     configuration.json       {"imageBase":"https://image.tmdb.org/t/p/w500","version":1}
///     certifications.json      {"orders":{"US":["G","PG","PG-13","R","NC-17"],…},"version":1}
/// ```
///
/// A movie's certifications sit beside its details, fetched with them; a file written before peerd
/// knew certifications has none, and they are then fetched alone (``CatalogService/certification(of:in:for:)``).
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
        await entry(of: movie, language: language)?.details
    }

    /// The cached certifications of `movie`, nil when there are none: no details cached in `language`, or
    /// details cached before peerd knew certifications.
    package func certifications(of movie: MovieID, language: String) async -> MovieCertifications? {
        await entry(of: movie, language: language)?.certifications
    }

    /// Saves `details` of `movie` and its `certifications` (nil: unknown), replacing what was there.
    package func store(
        _ details: MovieDetails,
        certifications: MovieCertifications? = nil,
        of movie: MovieID
    ) async throws(CatalogError) {
        guard let name = name(of: movie, language: details.language) else {
            throw .cacheUnwritable(directory, reason: "the language \(details.language) is not a language tag")
        }
        let folder = self.folder
        let entry = CachedDetails(movie: movie, details: details, certifications: certifications)
        try await BlockingPool.run { () throws(CatalogError) in try folder.write(entry, named: name) }
    }

    /// Puts `certifications` beside the cached details of `movie` in `language`; nothing when none are cached.
    package func store(
        _ certifications: MovieCertifications,
        of movie: MovieID,
        language: String
    ) async throws(CatalogError) {
        guard let entry = await entry(of: movie, language: language) else { return }
        try await store(entry.details, certifications: certifications, of: movie)
    }

    /// How each country ranks its certifications, once fetched.
    package func certificationOrders() async -> Certifications? {
        let folder = self.folder
        return await BlockingPool.run { folder.read(CachedOrders.self, named: "certifications.json")?.orders }
    }

    package func storeCertificationOrders(_ orders: Certifications) async throws(CatalogError) {
        let folder = self.folder
        try await BlockingPool.run { () throws(CatalogError) in
            try folder.write(CachedOrders(orders: orders), named: "certifications.json")
        }
    }

    private func entry(of movie: MovieID, language: String) async -> CachedDetails? {
        guard let name = name(of: movie, language: language) else { return nil }
        let folder = self.folder
        return await BlockingPool.run { () -> CachedDetails? in
            guard let entry = folder.read(CachedDetails.self, named: name),
                entry.version == CachedDetails.currentVersion, entry.movie == movie,
                entry.details.language == language, entry.details.invalidReason == nil
            else { return nil }
            return entry
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
