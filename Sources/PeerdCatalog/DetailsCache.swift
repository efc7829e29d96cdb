package import PeerdModel
import PeerdStore
package import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Fetched details on disk, in a folder of the state directory, so a restart never fetches again
/// what it already has.
///
/// ```
/// <cache>/                     mode 0700
///     movie-603.en-US.json     {"details":{…},"movie":603,"version":1}, mode 0600
///     configuration.json       {"imageBase":"https://image.tmdb.org/t/p/w500","version":1}
/// ```
///
/// Each file is small and written atomically (``AtomicFile``). A file that cannot be read back as
/// valid details of that movie in that language is ignored, so the movie is fetched again.
package struct DetailsCache: Sendable {
    package let directory: FilePath

    package init(directory: FilePath) {
        self.directory = directory
    }

    /// The cached details of `movie` in `language`, or nil when there are none (or none readable).
    package func details(of movie: MovieID, language: String) -> MovieDetails? {
        guard let path = path(of: movie, language: language),
            let entry = read(CachedDetails.self, at: path),
            entry.version == CachedDetails.currentVersion, entry.movie == movie
        else { return nil }
        let details = entry.details
        guard details.language == language, details.invalidReason == nil else { return nil }
        return details
    }

    /// Saves `details` of `movie`, replacing what was there.
    package func store(_ details: MovieDetails, of movie: MovieID) throws(CatalogError) {
        guard let path = path(of: movie, language: details.language) else {
            throw .cacheUnwritable(directory, reason: "the language \(details.language) is not a language tag")
        }
        try write(CachedDetails(movie: movie, details: details), to: path)
    }

    /// The poster base URL from `/3/configuration`, once fetched.
    package func imageBase() -> String? {
        read(CachedConfiguration.self, at: directory.appending("configuration.json"))?.imageBase
    }

    package func storeImageBase(_ base: String) throws(CatalogError) {
        try write(CachedConfiguration(imageBase: base), to: directory.appending("configuration.json"))
    }

    private func path(of movie: MovieID, language: String) -> FilePath? {
        guard CatalogSettings.isLanguage(language) else { return nil }
        return directory.appending("movie-\(movie.rawValue).\(language).json")
    }

    private func read<Entry: Decodable>(_ entry: Entry.Type, at path: FilePath) -> Entry? {
        guard let bytes = try? AtomicFile.read(path) else { return nil }
        return try? JSONDecoder().decode(entry, from: Data(bytes))
    }

    private func write(_ entry: some Encodable, to path: FilePath) throws(CatalogError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        do {
            try makeDirectory()
            try AtomicFile.write(Array(encoder.encode(entry)), to: path)
        } catch let error as StoreError {
            throw .cacheUnwritable(path, reason: error.description)
        } catch {
            throw .cacheUnwritable(path, reason: "\(error)")
        }
    }

    /// The cache folder, mode 0700, made on first use (its parent, the state directory, exists).
    private func makeDirectory() throws(StoreError) {
        guard directory.withPlatformString({ mkdir($0, 0o700) }) != 0 else { return }
        let error = Errno(rawValue: errno)
        guard error == .fileExists else { throw .cannotAccess(directory, error) }
    }
}
