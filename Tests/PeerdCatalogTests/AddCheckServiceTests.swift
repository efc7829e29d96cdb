import NIOHTTP1
import PeerdCatalog
import PeerdModel
import PeerdTestKit
import Testing

/// An add's check on a token holder (issue 35, points 4 and 9): what it makes of TMDB's answer,
/// and through the service and an HTTP fake, TMDB's answer, its 404, and no answer in time.
@Suite struct AddCheckServiceTests {
    static let matrix = MovieID(603)!
    /// The tests that want TMDB's answer wait for it as long as it takes: the second an add waits
    /// in peerd is a choice of peerd's, and a loaded machine (the whole suite at once) can take longer.
    static let patient = FetchPolicy(
        turnDelay: .milliseconds(1) ... .milliseconds(5),
        firstRetry: .milliseconds(10),
        addCheckWait: .seconds(60)
    )

    @Test func anAnswerIsKeptSoTheDescribeAfterTheAddAsksNothingMore() async throws {
        let server = try await FakeTMDB.serving(try CatalogServiceTests.movies())
        let replica = MemoryReplica([])
        try await CatalogServiceTests.run(server, replica, LogRecorder(), policy: Self.patient) { service in
            guard case .found(let details) = await service.checkBeforeAdd(Self.matrix) else {
                Issue.record("The Matrix was not found")
                return
            }
            #expect(
                Movie(id: Self.matrix).titled(by: details) == Movie(id: Self.matrix, title: "The Matrix", year: 1999)
            )
            let described = await replica.describedMovies()
            await replica.add(Self.matrix, addedHere: true)
            #expect(await described.first() == Self.matrix)
        }
        #expect(server.count("/3/movie/603") == 1)
    }

    @Test func aMovieTMDBDoesntHaveIsMissing() async throws {
        let server = try await FakeTMDB.start { _, _ in .body(.notFound, Array(#"{"status_code":34}"#.utf8)) }
        try await CatalogServiceTests.run(server, MemoryReplica([]), LogRecorder(), policy: Self.patient) { service in
            guard case .missing = await service.checkBeforeAdd(MovieID(88_888_888)!) else {
                Issue.record("a 404 did not make the movie missing")
                return
            }
        }
    }

    @Test func noAnswerWithinTheWaitLetsTheAddGoAhead() async throws {
        let server = try await FakeTMDB.start { _, _ in .stall }
        let policy = FetchPolicy(addCheckWait: .milliseconds(50))
        try await CatalogServiceTests.run(server, MemoryReplica([]), LogRecorder(), policy: policy) { service in
            guard case .unknown(let reason) = await service.checkBeforeAdd(Self.matrix) else {
                Issue.record("a stalled TMDB refused or titled the add")
                return
            }
            #expect(reason == "no answer within 50 ms")
        }
    }

    @Test func anAddsCheckRefusesOnlyANotFound() {
        let details = MovieDetails(
            .init(title: "Forrest Gump", releaseDate: "1994-06-23", language: "en-US", fetchedAt: 1)
        )
        let notFound = CatalogError.upstream(
            .details(MovieID(88_888_888)!),
            .status(
                code: 404,
                reason: "Not Found",
                message: "The resource you requested could not be found.",
                retryAfter: nil
            )
        )
        let refused = CatalogError.upstream(
            .details(Self.matrix),
            .status(code: 401, reason: "Unauthorized", message: nil, retryAfter: nil)
        )
        guard case .found(let found) = AddCheck(.success(details), wait: .seconds(1)) else {
            Issue.record("details were not found"); return
        }
        #expect(found.title == "Forrest Gump")
        guard case .missing = AddCheck(.failure(notFound), wait: .seconds(1)) else {
            Issue.record("a 404 did not refuse the add"); return
        }
        for outcome in [
            Result<MovieDetails, CatalogError>.failure(FetchBackoffTests.serverError()), .failure(refused), nil,
        ] {
            guard case .unknown(let reason) = AddCheck(outcome, wait: .seconds(1)) else {
                Issue.record("\(String(describing: outcome)) refused the add"); return
            }
            print("added unchecked:", reason)
        }
        guard case .unknown("no answer within 1 s") = AddCheck(nil, wait: .seconds(1)) else {
            Issue.record("no answer in time said something else"); return
        }
    }

    @Test func anAddCarriesTMDBsTitleAndYear() {
        let gump = MovieDetails(
            .init(title: "Forrest Gump", releaseDate: "1994-06-23", language: "en-US", fetchedAt: 1)
        )
        let asked = Movie(id: MovieID(13)!)
        #expect(asked.titled(by: gump) == Movie(id: MovieID(13)!, title: "Forrest Gump", year: 1994))
        let early = MovieDetails(.init(title: "Roundhay", releaseDate: "1860-10-14", language: "en-US", fetchedAt: 1))
        #expect(asked.titled(by: early) == Movie(id: MovieID(13)!, title: "Roundhay", year: nil))
    }
}
