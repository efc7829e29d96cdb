import NIOHTTP1
import PeerdCatalog
import PeerdModel
import PeerdWire
import Testing

@Suite struct TMDBClientTests {
    static let matrix = MovieID(603)!

    @Test func aV4TokenIsSentAsABearerHeader() async throws {
        let server = try await FakeTMDB.serving(["/3/movie/603": try Fixtures.bytes("movie-603.json")])
        let details = try await withClient(server) { try await $0.details(of: Self.matrix) }
        #expect(details.title == "The Matrix")
        #expect(details.voteAverage == 822)
        let request = try #require(server.requests.first)
        #expect(request.header("Authorization") == "Bearer \(TMDBCredentialTests.readAccessToken)")
        #expect(request.query == ["language": "en-US", "append_to_response": "watch/providers,release_dates"])
        #expect(request.header("Accept") == "application/json")
    }

    @Test func aV3KeyIsSentAsTheAPIKeyQuery() async throws {
        let server = try await FakeTMDB.serving(["/3/movie/603": try Fixtures.bytes("movie-603.json")])
        _ = try await withClient(server, token: TMDBCredentialTests.apiKey) { try await $0.details(of: Self.matrix) }
        let request = try #require(server.requests.first)
        #expect(request.query["api_key"] == TMDBCredentialTests.apiKey)
        #expect(request.header("Authorization") == nil)
    }

    @Test func aSearchAsksForItsQueryPageAndYearAndReadsThePage() async throws {
        let server = try await FakeTMDB.serving(["/3/search/movie": try Fixtures.bytes("search-matrix-page1.json")])
        let page = try await withClient(server) { try await $0.search("the matrix & co", year: 1999, page: 2) }
        #expect(page.query == "the matrix & co")
        #expect(page.results.first?.title == "The Matrix")
        let request = try #require(server.requests.first)
        #expect(request.uri.contains("query=the%20matrix%20%26%20co"))
        #expect(request.query["query"] == "the matrix & co")
        #expect(request.query["page"] == "2")
        #expect(request.query["year"] == "1999")
        #expect(request.query["include_adult"] == "false")
    }

    @Test func a429WithRetryAfterBecomesAnErrorThatSaysHowLongToWait() async throws {
        let message = "Your request count (41) is over the allowed limit of 40."
        let body = Array(#"{"status_code":25,"status_message":"\#(message)","success":false}"#.utf8)
        let server = try await FakeTMDB.start { _, _ in .body(.tooManyRequests, body, headers: [("Retry-After", "7")]) }
        let (error, _) = try await withClient(server) { client in
            await failure { () throws(CatalogError) in try await client.search("matrix", year: nil, page: 3) }
        }
        print("429:", error.map(String.init(describing:)) ?? "none")
        let upstream = try #require(error?.upstreamFailure)
        #expect(upstream.retryAfter == .seconds(7))
        #expect(
            error?.description
                == "TMDB search for 'matrix', page 3: TMDB answered 429 (Too Many Requests) and asked to wait 7 s: "
                + "Your request count (41) is over the allowed limit of 40; try again in 7 s"
        )
    }

    @Test func a503WithAnHTTPDateRetryAfterWaitsUntilThatDate() async throws {
        let server = try await FakeTMDB.start { _, _ in
            .body(.serviceUnavailable, Array("busy".utf8), headers: [("Retry-After", "Fri, 31 Dec 1999 23:59:59 GMT")])
        }
        let (error, _) = try await withClient(server) { client in
            await failure { () throws(CatalogError) in try await client.details(of: Self.matrix) }
        }
        #expect(
            error?.upstreamFailure == .status(code: 503, reason: "Service Unavailable", message: nil, retryAfter: .zero)
        )
    }

    @Test func aStalledAnswerHitsTheDeadline() async throws {
        let server = try await FakeTMDB.start { _, _ in .stall }
        let limits = CatalogLimits(requestTimeout: .milliseconds(300))
        let (error, took) = try await withClient(server, limits: limits) { client in
            await failure { () throws(CatalogError) in try await client.details(of: Self.matrix) }
        }
        print("stall:", error.map(String.init(describing:)) ?? "none", "after", took)
        // The server never answers: an answer at all, and this one, is the deadline at work.
        #expect(error?.upstreamFailure == .timedOut(.milliseconds(300)))
    }

    @Test func aBodyThatStallsHalfwayHitsTheDeadlineToo() async throws {
        let server = try await FakeTMDB.start { _, _ in .stallBody }
        let limits = CatalogLimits(requestTimeout: .milliseconds(300))
        let (error, took) = try await withClient(server, limits: limits) { client in
            await failure { () throws(CatalogError) in try await client.details(of: Self.matrix) }
        }
        print("stall mid-body:", error.map(String.init(describing:)) ?? "none", "after", took)
        #expect(error?.upstreamFailure == .timedOut(.milliseconds(300)))
    }

    /// The deadline is a minute here: what is tested is the size cap, and with the whole suite
    /// running on two cores, streaming 2 MiB once took longer than the default 5 s.
    @Test func aChunkedBodyOverTheLimitIsRefusedWhileItStreams() async throws {
        let server = try await FakeTMDB.start { _, _ in .chunked(bytes: 5 << 20) }
        let limits = CatalogLimits(requestTimeout: .seconds(60))
        let (error, took) = try await withClient(server, limits: limits) { client in
            await failure { () throws(CatalogError) in try await client.details(of: Self.matrix) }
        }
        print("5 MB chunked:", error.map(String.init(describing:)) ?? "none", "after", took)
        #expect(error?.upstreamFailure == .tooLarge(limit: 2 << 20))
    }

    @Test func aFiftyMegabyteContentLengthIsRefusedBeforeItsBody() async throws {
        let server = try await FakeTMDB.start { _, _ in .declared(length: 50 << 20) }
        let (error, took) = try await withClient(server) { client in
            await failure { () throws(CatalogError) in try await client.details(of: Self.matrix) }
        }
        print("50 MB declared:", error.map(String.init(describing:)) ?? "none", "after", took)
        #expect(error?.upstreamFailure == .tooLarge(limit: 2 << 20))
    }

    @Test func aResetConnectionIsATransportError() async throws {
        let server = try await FakeTMDB.start { _, _ in .reset }
        let (error, _) = try await withClient(server) { client in
            await failure { () throws(CatalogError) in try await client.details(of: Self.matrix) }
        }
        print("reset:", error.map(String.init(describing:)) ?? "none")
        guard case .transport = error?.upstreamFailure else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
    }

    @Test func malformedJSONIsAParseError() async throws {
        let server = try await FakeTMDB.start { _, _ in .body(.ok, Array(#"{"id":603,"title":"The Ma"#.utf8)) }
        let (error, _) = try await withClient(server) { client in
            await failure { () throws(CatalogError) in try await client.details(of: Self.matrix) }
        }
        print("malformed:", error.map(String.init(describing:)) ?? "none")
        #expect(error?.upstreamFailure == .malformed("it is not JSON"))
    }

    @Test func aRefusedTokenSaysToCheckItAndIsNotWorthRetrying() async throws {
        let server = try await FakeTMDB.start { _, _ in
            .body(.unauthorized, (try? Fixtures.bytes("error-401.json")) ?? [])
        }
        let (error, _) = try await withClient(server) { client in
            await failure { () throws(CatalogError) in try await client.details(of: Self.matrix) }
        }
        #expect(error?.upstreamFailure?.isPermanent == true)
        #expect(error?.description.contains("Invalid API key") == true)
        #expect(
            error?.description.hasSuffix("check the TMDB token (--tmdb-token-file, tmdbTokenFile or TMDB_TOKEN)")
                == true
        )
    }

    @Test func requestsOverPeerdsOwnRateCapAreRefusedWithHowLongToWait() async throws {
        let server = try await FakeTMDB.serving(["/3/movie/603": try Fixtures.bytes("movie-603.json")])
        // One request a minute: the second, right after the first, must wait far over the deadline.
        let limits = CatalogLimits(requestTimeout: .milliseconds(200), requestInterval: .seconds(60), burst: 1)
        let (error, _) = try await withClient(server, limits: limits) { client in
            _ = try await client.details(of: Self.matrix)
            return await failure { () throws(CatalogError) in try await client.details(of: Self.matrix) }
        }
        guard case .throttled(let wait) = error?.upstreamFailure else {
            Issue.record("expected throttled, got \(String(describing: error))")
            return
        }
        #expect(wait > .milliseconds(200) && wait <= .seconds(60))
        #expect(server.requests.count == 1)
    }

    /// Peers' queries, all together, get half the cap's burst and rate: past that they are refused
    /// at once, while this peer's own requests still find the other half free.
    @Test func peersQueriesUseOnlyTheirShareOfTheRateCap() async throws {
        let server = try await FakeTMDB.serving([
            "/3/search/movie": try Fixtures.bytes("search-matrix-page1.json"),
            "/3/movie/603": try Fixtures.bytes("movie-603.json"),
        ])
        let limits = CatalogLimits(requestTimeout: .milliseconds(200), requestInterval: .seconds(60), burst: 4)
        let (refused, ownAfter) = try await withClient(server, limits: limits) { client in
            for _ in 0..<2 { _ = try await client.search("matrix", year: nil, page: 1, for: .peer) }
            let refused = await failure { () throws(CatalogError) in
                try await client.search("matrix", year: nil, page: 1, for: .peer)
            }.error
            var own = 0
            for _ in 0..<2 where (try? await client.details(of: Self.matrix)) != nil { own += 1 }
            return (refused, own)
        }
        guard case .throttled = refused?.upstreamFailure else {
            Issue.record("expected the third peer query throttled, got \(String(describing: refused))")
            return
        }
        #expect(ownAfter == 2)
        #expect(server.requests.count == 4)
    }

    @Test func theTokenNeverAppearsInAnyErrorDescription() async throws {
        let answers: [FakeTMDB.Answer] = [
            .body(.internalServerError, Array("oops".utf8)), .reset, .stall, .chunked(bytes: 3 << 20),
            .body(.ok, Array("not json".utf8)), .body(.unauthorized, Array(#"{"status_message":"bad key"}"#.utf8)),
        ]
        let limits = CatalogLimits(requestTimeout: .milliseconds(300), requestInterval: .milliseconds(10), burst: 100)
        for token in [TMDBCredentialTests.apiKey, TMDBCredentialTests.readAccessToken] {
            let server = try await FakeTMDB.start { _, index in answers[index % answers.count] }
            let errors = try await withClient(server, token: token, limits: limits) { client in
                var errors: [CatalogError?] = []
                for _ in answers {
                    errors.append(
                        await failure { () throws(CatalogError) in try await client.details(of: Self.matrix) }.error
                    )
                }
                return errors
            }
            #expect(errors.allSatisfy { $0 != nil })
            #expect(errors.allSatisfy { !String(describing: $0).contains(token) })
        }
    }

    @Test func postersUseTheDefaultBaseUntilTheConfigurationSaysOtherwise() async throws {
        let configuration = #"{"images":{"secure_base_url":"https://mirror.example/img/","poster_sizes":["w500"]}}"#
        let server = try await FakeTMDB.serving(["/3/configuration": Array(configuration.utf8)])
        try await withClient(server) { client async throws in
            let poster = "/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg"
            #expect(client.posterURL(for: poster) == "https://image.tmdb.org/t/p/w500" + poster)
            #expect(try await client.fetchImageBase() == "https://mirror.example/img/w500")
            #expect(client.posterURL(for: "/x.jpg") == "https://mirror.example/img/w500/x.jpg")
        }
    }
}
