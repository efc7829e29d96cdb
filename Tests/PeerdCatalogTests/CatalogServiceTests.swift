import Logging
import NIOHTTP1
import NIOPosix
import PeerdCatalog
import PeerdModel
import PeerdTestKit
import ServiceLifecycle
import ServiceLifecycleTestKit
import SystemPackage
import Testing

@Suite struct CatalogServiceTests {
    static let peer = PeerID("a1b2c3d4e5f60718293a4b5c6d7e8f90")!
    static let matrix = MovieID(603)!
    static let fightClub = MovieID(550)!
    /// Retries in milliseconds, so a test waits on events, not on the clock.
    static let quick = FetchPolicy(turnDelay: .milliseconds(1) ... .milliseconds(5), firstRetry: .milliseconds(10))

    static func movies() throws -> [String: [UInt8]] {
        [
            "/3/movie/603": try Fixtures.bytes("movie-603.json"), "/3/movie/550": try Fixtures.bytes("movie-550.json"),
            "/3/configuration": try Fixtures.bytes("configuration.json"),
        ]
    }

    @Test func aMovieAddedHereIsDescribedOnce() async throws {
        let server = try await FakeTMDB.serving(Self.movies())
        let replica = MemoryReplica([(Self.matrix, true)])
        let recorder = LogRecorder()
        try await Self.run(server, replica, recorder) { _ in
            let described = await replica.describedMovies()
            var iterator = described.makeAsyncIterator()
            #expect(await iterator.next() == Self.matrix)
            await replica.add(Self.fightClub, addedHere: true)
            #expect(await iterator.next() == Self.fightClub)
        }
        #expect(server.count("/3/movie/603") == 1)
        #expect(await replica.describes.map(\.details.title) == ["The Matrix", "Fight Club"])
        let lines = recorder.records.filter { $0.message == "described a movie" }
        print("log:", lines.map { "\($0.message) \($0.metadata)" })
        #expect(lines.first?.metadata["title"] == "The Matrix")
        #expect(lines.first?.metadata["attempts"] == "1")
    }

    /// The group's region decides whose offers a describe carries: when it changes, the listed movies
    /// are fetched again (not taken from the cache, which looked in the old region).
    @Test func aNewGroupRegionFetchesWhereToWatchAgain() async throws {
        let server = try await FakeTMDB.serving(["/3/movie/550": try Fixtures.bytes("movie-550-providers.json")])
        let replica = MemoryReplica([(Self.fightClub, true)])
        try await Self.run(server, replica, LogRecorder()) { _ in
            let described = await replica.describedMovies()
            var iterator = described.makeAsyncIterator()
            #expect(await iterator.next() == Self.fightClub)
            await replica.choose(region: "DE")
            #expect(await iterator.next() == Self.fightClub)
        }
        #expect(server.count("/3/movie/550") == 2)
        let regions = await replica.describes.map { $0.details.providers?.region }
        #expect(regions == ["US", "DE"])
        let stream = await replica.describes.map { $0.details.providers?.stream.count }
        #expect(stream == [4, 0], "DE lists no streaming offers: an empty list of the region, not nil")
    }

    @Test func aFailingTMDBIsRetriedWithBackoffUntilItAnswers() async throws {
        let body = try Fixtures.bytes("movie-603.json")
        let server = try await FakeTMDB.start { request, earlier in
            guard request.path == "/3/movie/603" else { return .body(.notFound, []) }
            return earlier < 2 ? .body(.internalServerError, Array("{}".utf8)) : .body(.ok, body)
        }
        let replica = MemoryReplica([(Self.matrix, true)])
        let recorder = LogRecorder()
        try await Self.run(server, replica, recorder) { _ in
            _ = await replica.describedMovies().first()
        }
        #expect(server.count("/3/movie/603") == 3)
        let described = recorder.records.first { $0.message == "described a movie" }
        #expect(described?.metadata["attempts"] == "3")
        #expect(recorder.records.filter { $0.message == "could not describe a movie" }.count == 2)
    }

    @Test func whileTMDBFailsThePendingReasonSaysWhyAndWhen() async throws {
        let server = try await FakeTMDB.start { _, _ in .body(.internalServerError, Array("oops".utf8)) }
        let replica = MemoryReplica([(Self.matrix, true)])
        let recorder = LogRecorder()
        let slow = FetchPolicy(quickRetries: 0, steadyRetries: 0, firstRetry: .seconds(3_600))
        try await Self.run(server, replica, recorder, policy: slow) { service in
            _ = await recorder.stream(of: "could not describe a movie").first()
            let reason = try #require(await service.pendingReason(Self.matrix))
            print("pending:", reason)
            #expect(reason.hasPrefix("fetch failed 1 time (TMDB answered 500 (Internal Server Error)); next try in "))
            #expect(reason.hasSuffix(" min"))
            #expect(await service.pendingReason(Self.fightClub) == nil)
        }
    }

    @Test func aRefreshQueuesAFetchOfADescribedMovieNow() async throws {
        let server = try await FakeTMDB.serving(Self.movies())
        let replica = MemoryReplica([(Self.matrix, true)])
        let recorder = LogRecorder()
        try await Self.run(server, replica, recorder) { service in
            let described = await replica.describedMovies()
            var iterator = described.makeAsyncIterator()
            #expect(await iterator.next() == Self.matrix)
            #expect(await service.refresh([Self.matrix]) == 1)
            #expect(await iterator.next() == Self.matrix)
        }
        #expect(server.count("/3/movie/603") == 2)
        #expect(await replica.describes.count == 2)
    }

    @Test func aCachedMovieIsNotFetchedAgainAfterARestart() async throws {
        let state = try ScratchDirectory("catalog")
        defer { state.remove() }
        let cache = state.path.appending("tmdb")
        let first = try await FakeTMDB.serving(Self.movies())
        let before = MemoryReplica([(Self.matrix, true)])
        try await Self.run(first, before, LogRecorder(), cache: cache) { _ in
            _ = await before.describedMovies().first()
        }
        #expect(first.count("/3/movie/603") == 1)

        let second = try await FakeTMDB.start { _, _ in .body(.internalServerError, []) }
        let after = MemoryReplica([(Self.matrix, true)])
        let recorder = LogRecorder()
        try await Self.run(second, after, recorder, cache: cache) { _ in
            _ = await after.describedMovies().first()
        }
        #expect(second.requests.isEmpty)
        #expect(await after.describes.first?.details == before.describes.first?.details)
        #expect(recorder.records.first { $0.message == "described a movie" }?.metadata["from"] == "cache")
    }

    @Test func aMovieAnotherPeerDescribesFirstIsNotFetched() async throws {
        let server = try await FakeTMDB.serving(Self.movies())
        let replica = MemoryReplica([(Self.matrix, false)])
        let policy = FetchPolicy(turnDelay: .seconds(3_600) ... .seconds(3_600))
        try await Self.run(server, replica, LogRecorder(), policy: policy) { service in
            // The service's schedule takes the movie in its own turn, which nothing announces: a poll.
            #expect(try await waitUntil(Ticks()) { await service.pendingReason(Self.matrix) != nil })
            #expect(await service.pendingReason(Self.matrix)?.hasPrefix("waiting for a peer with a TMDB token") == true)
            let details = try TMDBResponses.details(Fixtures.bytes("movie-603.json"), language: "en-US", fetchedAt: 1)
            await replica.describe(Self.matrix, details)
            await replica.add(Self.fightClub, addedHere: true)
            let described = await replica.describedMovies()
            _ = await described.first()
            #expect(await service.pendingReason(Self.matrix) == nil)
        }
        #expect(server.count("/3/movie/603") == 0)
        #expect(server.count("/3/movie/550") == 1)
    }

    @Test func theServiceStopsOnGracefulShutdown() async throws {
        let server = try await FakeTMDB.start { _, _ in .stall }
        let state = try ScratchDirectory("catalog")
        defer { state.remove() }
        // The request would wait a minute; only cancellation can end it sooner.
        let patient = CatalogLimits(requestTimeout: .seconds(60))
        let client = TMDBClient(
            settings: try settings(server, limits: patient, cache: state.path),
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            logger: Logger(label: "test")
        )
        let service = CatalogService(
            client: client,
            replica: MemoryReplica([(Self.matrix, true)]),
            peer: Self.peer,
            cache: DetailsCache(directory: state.path),
            logger: Logger(label: "test")
        )
        let started = ContinuousClock.now
        let arrivals = server.arrivals.subscribe()
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await service.run() }
                #expect(try await waitUntil(arrivals) { server.count("/3/movie/603") == 1 })
                trigger.triggerGracefulShutdown()
                try await group.waitForAll()
            }
        }
        #expect(started.duration(to: .now) < .seconds(30))
        try await server.stop()
    }

    /// Runs a CatalogService against `server` while `body` runs, then stops both.
    static func run(
        _ server: FakeTMDB,
        _ replica: MemoryReplica,
        _ recorder: LogRecorder,
        policy: FetchPolicy = quick,
        cache: FilePath? = nil,
        _ body: @escaping @Sendable (CatalogService) async throws -> Void
    ) async throws {
        let state = try ScratchDirectory("catalog")
        defer { state.remove() }
        let directory = cache ?? state.path.appending("tmdb")
        let client = TMDBClient(
            settings: try settings(server, cache: directory),
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            logger: recorder.logger
        )
        let service = CatalogService(
            client: client,
            replica: replica,
            peer: Self.peer,
            cache: DetailsCache(directory: directory),
            logger: recorder.logger,
            policy: policy
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await service.run() }
            try await body(service)
            group.cancelAll()
        }
        try await server.stop()
    }
}
