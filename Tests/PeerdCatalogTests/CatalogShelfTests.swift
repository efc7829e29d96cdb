import Foundation
import PeerdCatalog
import PeerdModel
import PeerdTestKit
import PeerdWire
import SystemPackage
import Testing

@Suite struct CatalogShelfTests {
    static let hour: Int64 = 3_600_000
    static let popular = CatalogQuery.Ask.discover(DiscoverList(), page: 1)

    static func page(_ name: String) -> CatalogAnswer.Found {
        .movies(
            SearchResultsRecord(
                query: name,
                page: 1,
                totalPages: 1,
                totalResults: 1,
                results: [SearchResultRecord(movieId: 603, title: "The Matrix", year: 1999)]
            )
        )
    }

    @Test func aKeptPageComesBackWithWhenItWasFetched() async throws {
        let directory = try ScratchDirectory("catalog")
        defer { directory.remove() }
        let shelf = CatalogShelf(directory: directory.path.appending("tmdb"))
        #expect(await shelf.kept(Self.popular) == nil)
        try await shelf.keep(Self.page("popular"), for: Self.popular, at: 5 * Self.hour)
        #expect(
            await shelf.kept(Self.popular) == CatalogShelf.Kept(found: Self.page("popular"), fetchedAt: 5 * Self.hour)
        )
        #expect(await shelf.kept(.discover(DiscoverList(), page: 2)) == nil)
        #expect(await shelf.kept(.discover(DiscoverList(.topRated), page: 1)) == nil)
    }

    @Test func aPageIsFreshForAnHourAndTheGenresForAWeek() {
        let kept = CatalogShelf.Kept(found: Self.page("popular"), fetchedAt: 0)
        #expect(CatalogShelf.isFresh(kept, for: Self.popular, now: Self.hour - 1))
        #expect(!CatalogShelf.isFresh(kept, for: Self.popular, now: Self.hour))
        #expect(CatalogShelf.isFresh(kept, for: .genres, now: 7 * 24 * Self.hour - 1))
        #expect(!CatalogShelf.isFresh(kept, for: .genres, now: 7 * 24 * Self.hour))
        // A clock set back makes a page of "the future" stale, not fresh for ever.
        #expect(
            !CatalogShelf.isFresh(
                CatalogShelf.Kept(found: Self.page("p"), fetchedAt: Self.hour),
                for: Self.popular,
                now: 0
            )
        )
    }

    @Test func searchesAreNeverKept() async throws {
        let directory = try ScratchDirectory("catalog")
        defer { directory.remove() }
        let shelf = CatalogShelf(directory: directory.path.appending("tmdb"))
        let search = CatalogQuery.Ask.search(text: "dune", year: nil, page: 1)
        try await shelf.keep(
            .search(SearchResultsRecord(query: "dune", page: 1, totalPages: 0, totalResults: 0, results: [])),
            for: search,
            at: 0
        )
        #expect(await shelf.kept(search) == nil)
    }

    @Test func eachFilterIsAPageOfItsOwn() async throws {
        let directory = try ScratchDirectory("catalog")
        defer { directory.remove() }
        let shelf = CatalogShelf(directory: directory.path.appending("tmdb"))
        let comedy = CatalogQuery.Ask.discover(DiscoverList(filter: DiscoverFilter(genre: 35)), page: 1)
        try await shelf.keep(Self.page("comedy"), for: comedy, at: 0)
        #expect(await shelf.kept(comedy)?.found == Self.page("comedy"))
        #expect(await shelf.kept(Self.popular) == nil)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path.appending("tmdb").string)
        #expect(names == ["list-popular-g35-p1.json"])
    }

    @Test(arguments: ["", "{", #"{"version":1,"key":"list-popular-p2","fetchedAt":0,"answer":{"id":0,"genres":[]}}"#])
    func aCorruptOrMisplacedFileIsIgnored(content: String) async throws {
        let directory = try ScratchDirectory("catalog")
        defer { directory.remove() }
        try directory.write(content, to: "tmdb/list-popular-p1.json")
        #expect(await CatalogShelf(directory: directory.path.appending("tmdb")).kept(Self.popular) == nil)
    }

    @Test func theOldestPagesGoFirstWhenTheShelfIsFull() async throws {
        let directory = try ScratchDirectory("catalog")
        defer { directory.remove() }
        let shelf = CatalogShelf(directory: directory.path.appending("tmdb"))
        let pages = CatalogShelf.maxPages + 3
        for page in 1...pages {
            try await shelf.keep(Self.page("p"), for: .discover(DiscoverList(), page: page), at: Int64(page))
            // Written a second apart as far as the file system says, so the order is certain.
            let path = directory.path.appending("tmdb/list-popular-p\(page).json").string
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: Double(page))],
                ofItemAtPath: path
            )
        }
        try await shelf.keep(CatalogAnswer.Found.genres([]), for: .genres, at: 0)
        for page in 1...3 { #expect(await shelf.kept(.discover(DiscoverList(), page: page)) == nil) }
        #expect(await shelf.kept(.discover(DiscoverList(), page: 4)) != nil)
        #expect(await shelf.kept(.discover(DiscoverList(), page: pages)) != nil)
        #expect(await shelf.kept(.genres) != nil)
    }
}
