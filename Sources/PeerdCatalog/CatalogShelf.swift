import PeerdLoops
import PeerdModel
package import PeerdWire
package import SystemPackage

/// TMDB's genres and pages of its lists, kept on disk beside the details (``CacheFolder``), so
/// `peerctl discover` and the page's Discover view have something to show, with its age, when
/// TMDB or the peer that holds the token is away. Every peer keeps its own shelf, token or not.
///
/// ```
/// <state>/tmdb/
///     genres.json                                  {"answer":{…},"fetchedAt":…,"key":"genres","version":1}
///     list-popular-p1.json                         a page of a list, in the same form
///     list-top-rated-g35-y1999-r110-m7.0-p2.json   filtered: genre, year, runtime, rating
///     similar-603-p1.json                          a page of recommendations
///     providers-DE.json                            the streaming services in a region
/// ```
///
/// The genres and a region's services are fresh for 7 days, a page of a list for 1 hour: trending
/// and popular change within a day. A fresh entry is answered from here and asks nobody; an older
/// one only when a fresh one can't be had. Searches are not kept. At most ``maxPages`` pages are kept: the
/// oldest go first. Reads and writes run on the ``BlockingPool``, never on an event loop.
package struct CatalogShelf: Sendable {
    /// A kept answer and when TMDB gave it (ms since 1970).
    package struct Kept: Sendable, Hashable {
        package var found: CatalogAnswer.Found
        package var fetchedAt: Int64

        package init(found: CatalogAnswer.Found, fetchedAt: Int64) {
            self.found = found
            self.fetchedAt = fetchedAt
        }
    }

    package static let genresLife = Duration.seconds(7 * 24 * 3600)
    package static let pageLife = Duration.seconds(3600)
    package static let maxPages = 300

    let folder: CacheFolder

    package init(directory: FilePath) {
        folder = CacheFolder(directory)
    }

    /// What is kept for `ask`, fresh or not; nil for an ask that is never kept.
    package func kept(_ ask: CatalogQuery.Ask) async -> Kept? {
        guard let key = Self.key(for: ask) else { return nil }
        let folder = self.folder
        return await BlockingPool.run { () -> Kept? in
            guard let entry = folder.read(ShelvedAnswer.self, named: key + ".json"),
                entry.version == ShelvedAnswer.currentVersion, entry.key == key,
                case .success(let found) = entry.answer.outcome
            else { return nil }
            return Kept(found: found, fetchedAt: entry.fetchedAt)
        }
    }

    /// Whether `kept` is young enough to answer `ask` without asking TMDB.
    package static func isFresh(_ kept: Kept, for ask: CatalogQuery.Ask, now: Int64) -> Bool {
        let life =
            switch ask {
            case .genres, .providers: genresLife
            default: pageLife
            }
        let age = now - kept.fetchedAt
        return age >= 0 && age < life.components.seconds * 1_000
    }

    /// Keeps `found`, the answer to `ask` that TMDB gave at `fetchedAt`; an ask that is never kept is ignored.
    package func keep(_ found: CatalogAnswer.Found, for ask: CatalogQuery.Ask, at fetchedAt: Int64)
        async throws(CatalogError)
    {
        guard let key = Self.key(for: ask) else { return }
        let entry = ShelvedAnswer(
            key: key,
            fetchedAt: fetchedAt,
            answer: CatalogAnswer(id: 0, outcome: .success(found))
        )
        let folder = self.folder
        try await BlockingPool.run { () throws(CatalogError) in
            try folder.write(entry, named: key + ".json")
            guard Self.isPage(key) else { return }
            let pages = folder.names(where: Self.isPage)
            guard pages.count > Self.maxPages else { return }
            for name in folder.oldestFirst(pages).dropLast(Self.maxPages) { folder.remove(named: name) }
        }
    }

    /// Whether a key or file name is a page of a list or of similar movies: those are capped at
    /// ``maxPages``; the genres and a region's services are one file each.
    static func isPage(_ name: String) -> Bool { name.hasPrefix("list-") || name.hasPrefix("similar-") }

    /// The file's name without `.json`, or nil for an ask that is never kept.
    static func key(for ask: CatalogQuery.Ask) -> String? {
        switch ask {
        case .genres: return "genres"
        case .discover(let list, let page):
            let filter = list.filter
            let parts = [
                filter.genre.map { "g\($0)" }, filter.year.map { "y\($0)" }, filter.maxRuntime.map { "r\($0)" },
                filter.minRating.map { "m\($0)" },
                filter.maxCertification.map {
                    "c\(filter.certificationCountry ?? "")\(TMDBRequest.percentEncoded($0))"
                },
            ].compactMap { $0 }
            return (["list", list.kind.rawValue] + parts + ["p\(page)"]).joined(separator: "-")
        case .similar(let movie, let page): return "similar-\(movie.rawValue)-p\(page)"
        case .providers(let region): return "providers-\(region)"
        case .search, .find, .certification, .unanswerable: return nil
        }
    }
}

/// A shelf file's JSON: the answer in the form a peer's `answer` carries it.
struct ShelvedAnswer: Codable {
    static let currentVersion = 1

    var version = currentVersion
    var key: String
    var fetchedAt: Int64
    var answer: CatalogAnswer
}
