import PeerdModel
import PeerdWire
import Synchronization
import Testing

@testable import PeerdDaemon

/// `import` in process: rows resolved against a catalog that stands in for TMDB (the real API's
/// shapes are the catalog tests' and the import stage's), made into marks once, and journaled.
@Suite("Import rows")
struct ImportResponderTests {
    static let id = String(repeating: "ab", count: 32)

    /// TMDB as a table: a search finds the movies whose title holds the text (and the year, if asked).
    final class TableCatalog: CatalogAccess {
        let movies: [SearchResultRecord]
        let asked = Mutex<[CatalogQuery.Ask]>([])

        init(_ movies: [(Int, String, Int)]) {
            self.movies = movies.map { SearchResultRecord(movieId: $0.0, title: $0.1, year: $0.2) }
        }

        func lookup(_ ask: CatalogQuery.Ask) async throws -> CatalogAnswer.Found {
            asked.withLock { $0.append(ask) }
            guard case .search(let text, let year, _) = ask else {
                return .movies(SearchResultsRecord(query: "", page: 1, totalPages: 1, totalResults: 0, results: []))
            }
            let found = movies.filter {
                $0.title.lowercased().contains(text.lowercased()) && (year == nil || $0.year == year)
            }
            return .search(
                SearchResultsRecord(query: text, page: 1, totalPages: 1, totalResults: found.count, results: found)
            )
        }
        func importLookup(_ ask: CatalogQuery.Ask) async throws -> CatalogAnswer.Found { try await lookup(ask) }
        func refresh(_ movies: [MovieID]) async -> Int { 0 }
        func pendingReason(_ movie: MovieID) async -> String? { nil }
        func posterURL(for path: String) async -> String { path }
    }

    static let catalog = [
        (603, "The Matrix", 1999), (841, "Dune", 1984), (438631, "Dune", 2021), (194, "Amélie", 2001),
    ]

    func run(_ responder: ControlResponder, _ rows: [ImportRow], dryRun: Bool = false) async throws -> [ImportResult] {
        let response = await responder.respond(to: ImportBatch(id: Self.id, rows: rows, dryRun: dryRun))
        guard case .imported(let record) = response else { throw ImportFailed(response: "\(response)") }
        return record.results
    }

    struct ImportFailed: Error { let response: String }

    @Test func rowsAreResolvedByTitleAndYearAndMadeOnce() async throws {
        let rows = [
            ImportRow(line: 2, title: "the matrix", year: 1999, want: true),
            ImportRow(line: 3, title: "Dune", year: 2021, seen: true, seenOn: "2024-03-01", rating: 8),
            ImportRow(line: 4, title: "Dune", want: true),
            ImportRow(line: 5, title: "Amelie", year: 2001, want: true),
            ImportRow(line: 6, tmdb: 550, title: "Fight Club", year: 1999, list: true),
        ]
        try await ControlResponderTests().withResponder(catalog: TableCatalog(Self.catalog)) { responder, store, _ in
            let first = try await run(responder, rows)
            #expect(first.map(\.outcome) == [.added, .marked, .unresolved, .unresolved, .added])
            #expect(first.map(\.movieId) == [603, 438631, nil, nil, 550])
            #expect(first[2].reason?.contains("2 movies are titled 'Dune' (1984, 2021)") == true)
            #expect(first[3].reason == "TMDB has no movie titled 'Amelie' (2001)")
            let written = store.operations.count
            #expect(written == 5, "an add and a want, a seen and a rating, an add")

            let again = try await run(responder, rows)
            #expect(again.map(\.outcome) == [.already, .already, .unresolved, .unresolved, .already])
            #expect(store.operations.count == written)
        }
    }

    @Test func aRunCutShortContinuesFromItsJournal() async throws {
        let table = TableCatalog(Self.catalog)
        try await ControlResponderTests().withResponder(catalog: table) { responder, store, _ in
            let rows = [
                ImportRow(line: 2, title: "The Matrix", year: 1999, want: true),
                ImportRow(line: 3, title: "Dune", year: 1984, seen: true),
            ]
            _ = try await run(responder, [rows[0]])
            let asked = table.asked.withLock { $0.count }
            let rest = try await run(responder, rows)
            #expect(rest.map(\.outcome) == [.already, .marked])
            #expect(table.asked.withLock { $0.count } == asked + 1, "the journaled row asks TMDB nothing")
            #expect(store.operations.count == 3, "an add and a want, then a seen")
        }
    }

    @Test func aDryRunSaysWhatWouldHappenAndWritesNothing() async throws {
        try await ControlResponderTests().withResponder(catalog: TableCatalog(Self.catalog)) { responder, store, _ in
            let rows = [ImportRow(line: 2, tmdb: 603, want: true), ImportRow(line: 3, tmdb: 13, seen: true)]
            let outcomes1 = try await run(responder, rows, dryRun: true).map(\.outcome)
            #expect(outcomes1 == [.added, .marked])
            #expect(store.operations.isEmpty)
            let outcomes2 = try await run(responder, rows).map(\.outcome)
            #expect(outcomes2 == [.added, .marked])
        }
    }

    @Test func aSeenMarkOnlyMovesForward() async throws {
        try await ControlResponderTests().withResponder { responder, store, _ in
            let rows = [
                ImportRow(line: 2, tmdb: 603, seen: true, seenOn: "2024-05-01"),
                ImportRow(line: 3, tmdb: 603, seen: true),
                ImportRow(line: 4, tmdb: 603, seen: true, seenOn: "2023-01-01"),
                ImportRow(line: 5, tmdb: 603, seen: true, seenOn: "2025-01-01"),
            ]
            let outcomes3 = try await run(responder, rows).map(\.outcome)
            #expect(outcomes3 == [.marked, .already, .already, .marked])
            let snapshot = await responder.replica.snapshot
            #expect(snapshot.list.marks.mark(.seen, of: snapshot.id, on: MovieID(603)!)?.on == "2025-01-01")
            #expect(store.operations.count == 2)
        }
    }

    @Test func withoutATokenOrAHolderTheRowFailsAndIsTriedAgainNextTime() async throws {
        try await ControlResponderTests().withResponder { responder, store, _ in
            let rows = [
                ImportRow(line: 2, title: "The Matrix", year: 1999, want: true),
                ImportRow(line: 3, imdb: "tt01", want: true),
            ]
            let results = try await run(responder, rows)
            #expect(results.map(\.outcome) == [.failed, .unresolved])
            #expect(results[0].reason?.contains("no TMDB token") == true)
            #expect(results[1].reason == "'tt01' is not an IMDb id")
            let outcomes4 = try await run(responder, rows).map(\.outcome)
            #expect(outcomes4 == [.failed, .unresolved])
            #expect(store.operations.isEmpty)
        }
    }

    @Test func aBatchThatIsNotOneIsRefused() async throws {
        try await ControlResponderTests().withResponder { responder, _, _ in
            let bad = ImportBatch(id: "nothex", rows: [ImportRow(line: 1, tmdb: 603)])
            #expect(
                await responder.respond(to: bad)
                    == .error(WireError(.badRequest, "an import's id is the file's SHA-256: 64 lowercase hex digits"))
            )
            let empty = ImportBatch(id: Self.id, rows: [])
            #expect(
                await responder.respond(to: empty)
                    == .error(WireError(.badRequest, "an import request carries 1 to 100 rows"))
            )
        }
    }
}

@Suite("Title match")
struct TitleMatchTests {
    static let results = [
        SearchResultRecord(movieId: 841, title: "Dune", year: 1984),
        SearchResultRecord(movieId: 438631, title: "Dune", year: 2021),
        SearchResultRecord(movieId: 129, title: "Spirited Away", originalTitle: "千と千尋の神隠し", year: 2001),
        SearchResultRecord(movieId: 146, title: "Crouching Tiger, Hidden Dragon", year: 2000),
        SearchResultRecord(movieId: 9, title: "Fast & Furious", year: 2009),
    ]

    @Test(arguments: [
        ("Dune", 2021, 438631), ("dune", 1984, 841), ("千と千尋の神隠し", 2001, 129),
        ("Crouching Tiger Hidden Dragon", 2000, 146), ("  crouching tiger, hidden dragon ", 2000, 146),
        ("Fast and Furious", 2009, 9),
    ])
    func aTitleAndYearThatAgreeMatch(_ title: String, _ year: Int, _ movie: Int) {
        #expect(
            TitleMatch.choose(Self.results, title: title, year: year)
                == .movie(Self.results.first { $0.movieId == movie }!)
        )
    }

    @Test func anythingElseIsUnresolvedWithItsReason() {
        #expect(
            TitleMatch.choose(Self.results, title: "Dune", year: 2000)
                == .unresolved("TMDB has no movie titled 'Dune' (2000); TMDB has it from 1984, 2021")
        )
        #expect(
            TitleMatch.choose(Self.results, title: "Dune", year: nil)
                == .unresolved("2 movies are titled 'Dune' (1984, 2021); the row has no year to choose by")
        )
        #expect(
            TitleMatch.choose(Self.results, title: "Dune Part Two", year: 2024)
                == .unresolved("TMDB has no movie titled 'Dune Part Two' (2024)")
        )
        #expect(TitleMatch.choose(Self.results, title: "Spirited Away", year: nil) == .movie(Self.results[2]))
    }
}
