import PeerdLoops
package import PeerdModel
package import SystemPackage

/// When this token holder last checked each wanted movie for news (``NewsSchedule``), kept in the
/// cache folder as `news-checks.json` so that a restart neither checks everything at once nor
/// waits a whole interval. A check is recorded only once its news (if any) is durable: a restart
/// in the middle of one makes it again, and finds the news already reported if it was.
package struct NewsChecks: Sendable {
    static let name = "news-checks.json"
    let folder: CacheFolder

    package init(directory: FilePath) {
        folder = CacheFolder(directory)
    }

    /// The recorded checks; none when the file is missing or unreadable.
    package func load() async -> [MovieID: Int64] {
        let folder = self.folder
        let entries = await BlockingPool.run { folder.read([String: Int64].self, named: Self.name) } ?? [:]
        return Dictionary(
            entries.compactMap { key, at in Int(key).flatMap(MovieID.init).map { ($0, at) } },
            uniquingKeysWith: max
        )
    }

    /// Writes `checks` in place of the recorded ones.
    package func save(_ checks: [MovieID: Int64]) async throws(CatalogError) {
        let folder = self.folder
        let entries = Dictionary(uniqueKeysWithValues: checks.map { ("\($0.key.rawValue)", $0.value) })
        try await BlockingPool.run { () throws(CatalogError) in try folder.write(entries, named: Self.name) }
    }
}
