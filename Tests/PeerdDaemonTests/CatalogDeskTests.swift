import Foundation
import PeerdCatalog
import PeerdModel
import PeerdTestKit
import PeerdWire
import Synchronization
import SystemPackage
import Testing

@testable import PeerdDaemon

/// ``CatalogDesk`` in process, over the real replica service: TMDB stood in for by a table that
/// can be told to fail, the shelf a real one in a temporary directory.
@Suite("The catalog desk")
struct CatalogDeskTests {
    /// TMDB as a table of answers; `failing` makes every lookup throw.
    final class ScriptedCatalog: CatalogAccess {
        let failing = Mutex(false)
        let asked = Mutex<[CatalogQuery.Ask]>([])

        func lookup(_ ask: CatalogQuery.Ask) async throws -> CatalogAnswer.Found {
            asked.withLock { $0.append(ask) }
            if failing.withLock({ $0 }) { throw CatalogError.unanswerable(kind: "test", reason: "TMDB is away") }
            switch ask {
            case .genres: return .genres([GenreRecord(id: 18, name: "Drama")])
            case .providers:
                return .providers([WatchProviders.Provider(id: 8, name: "Netflix", logoPath: nil)])
            default:
                let result = SearchResultRecord(movieId: 603, title: "The Matrix", year: 1999)
                return .movies(
                    SearchResultsRecord(query: "", page: 1, totalPages: 1, totalResults: 1, results: [result])
                )
            }
        }
        func importLookup(_ ask: CatalogQuery.Ask) async throws -> CatalogAnswer.Found { try await lookup(ask) }
        func refresh(_ movies: [MovieID]) async -> Int { movies.count }
        func pendingReason(_ movie: MovieID) async -> String? { "fetching" }
        func posterURL(for path: String) async -> String { "https://posters.test" + path }
    }

    func withDesk(_ body: (CatalogDesk, ScriptedCatalog, DeskWorld) async throws -> Void) async throws {
        let shelf = try ScratchDirectory("shelf")
        defer { shelf.remove() }
        let tmdb = ScriptedCatalog()
        try await DeskWorld.run { world in
            let desk = CatalogDesk(replica: world.replica, catalog: tmdb, shelf: CatalogShelf(directory: shelf.path))
            try await body(desk, tmdb, world)
        }
    }

    @Test func aFreshShelfAnswersWithoutAskingAndAStaleOneWhenTMDBIsAway() async throws {
        try await withDesk { desk, tmdb, _ in
            guard case .genres(let first) = await desk.genres() else { throw Unexpected() }
            #expect(first.genres.map(\.name) == ["Drama"] && first.fetchedAt == nil)
            guard case .genres(let again) = await desk.genres() else { throw Unexpected() }
            #expect(again.fetchedAt != nil && again.stale == nil)
            let asked = tmdb.asked.withLock(\.count)
            #expect(asked == 1, "the second came from the shelf")
            let popular = DiscoverList(.popular)
            _ = await desk.discover(popular, page: 1)
            tmdb.failing.withLock { $0 = true }
            guard case .movies(let kept) = await desk.discover(popular, page: 1) else { throw Unexpected() }
            #expect(kept.results.map(\.movieId) == [603], "a page kept within the hour is fresh")
            guard case .error(let error) = await desk.discover(popular, page: 2) else { throw Unexpected() }
            #expect(error.code == .upstreamFailed && error.message.contains("TMDB is away"))
        }
    }

    @Test func aSearchIsCheckedBeforeTMDBIsAsked() async throws {
        try await withDesk { desk, tmdb, _ in
            guard case .error(let empty) = await desk.search("   ", year: nil, page: nil),
                case .error(let year) = await desk.search("dune", year: 1800, page: nil),
                case .error(let page) = await desk.search("dune", year: nil, page: 501)
            else { throw Unexpected() }
            #expect([empty.code, year.code, page.code] == [.badRequest, .badRequest, .badRequest])
            // A pick's TMDB deck asks through `found`: a filter its list doesn't take asks nobody either.
            let trending = DiscoverList(.trendingWeek, filter: DiscoverFilter(maxRuntime: 100))
            guard case .failure(let filtered) = await desk.found(.discover(trending, page: 1)) else {
                throw Unexpected()
            }
            #expect(filtered.code == .badRequest && filtered.message.contains("not trending"))
            let asked = tmdb.asked.withLock(\.isEmpty)
            #expect(asked)
        }
    }

    @Test func settingTheServicesIsOneSignedOperationAndTheSameAgainMakesNone() async throws {
        try await withDesk { desk, _, world in
            guard case .services(let set) = await desk.services(region: "de", names: ["netflix"]) else {
                throw Unexpected()
            }
            #expect(set.region == "DE" && set.services.map(\.name) == ["Netflix"] && set.setBy == "alice")
            _ = await desk.services(region: "DE", names: ["Netflix"])
            #expect(world.commits == 1)
        }
    }

    @Test func showSaysWhatIsKnownOfAMovieOnOrOffTheList() async throws {
        try await withDesk { desk, _, world in
            guard case .error(let unknown) = await desk.show(MovieID(550)!) else { throw Unexpected() }
            #expect(unknown.code == .notListed)
            try await world.list([603])
            guard case .shown(let shown) = await desk.show(MovieID(603)!) else { throw Unexpected() }
            #expect(shown.movie?.movieId == 603 && shown.pending == "fetching")
            guard case .refreshing(let count) = await desk.refresh(nil) else { throw Unexpected() }
            #expect(count == 1)
        }
    }

    struct Unexpected: Error {}
}
