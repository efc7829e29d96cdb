import NIOHTTP1
import PeerdCatalog
import PeerdModel
import PeerdTestKit
import PeerdWire
import SystemPackage
import Testing

/// A list's ceiling (issue 39, item 3) through the service and the fake TMDB: a movie's certification in the
/// group's region against the country's order, each fetched once and cached.
@Suite struct CeilingCheckTests {
    static let matrix = MovieID(603)!
    static let toyStory = MovieID(862)!
    static let archivist = MovieID(1_266_127)!

    /// What the fake serves: The Matrix's details without release dates (so they are fetched alone), Toy
    /// Story's with them appended, The Archivist with none in any country, and the orders.
    static func certified() throws -> [String: [UInt8]] {
        [
            "/3/movie/603": try Fixtures.bytes("movie-603.json"),
            "/3/movie/603/release_dates": try Fixtures.bytes("release-dates-603.json"),
            "/3/movie/862": try Fixtures.bytes("movie-862-appended.json"),
            "/3/movie/1266127": try Fixtures.bytes("movie-sparse.json"),
            "/3/movie/1266127/release_dates": Array(#"{"id":1266127,"results":[]}"#.utf8),
            "/3/certification/movie/list": try Fixtures.bytes("certification-movie-list.json"),
            "/3/configuration": try Fixtures.bytes("configuration.json"),
        ]
    }

    @Test func anRRatedMovieIsRefusedFromAListThatTakesUpToPG() async throws {
        let server = try await FakeTMDB.serving(try Self.certified())
        let patient = AddCheckServiceTests.patient
        try await CatalogServiceTests.run(server, MemoryReplica([]), LogRecorder(), policy: patient) { service in
            let check = await service.checkCeiling(Self.matrix, ceiling: "PG")
            #expect(check.verdict == .above && check.certification == "R" && check.region == "US")
            #expect(
                check.refusal(title: "The Matrix", list: "kids") == "The Matrix is rated R in US; kids takes up to PG"
            )
            #expect(await service.checkCeiling(Self.matrix, ceiling: "R").verdict == .allowed)
            #expect(await service.checkCeiling(Self.matrix, ceiling: "12", region: "DE").verdict == .above)
        }
        #expect(server.count("/3/movie/603") == 1 && server.count("/3/movie/603/release_dates") == 1)
        #expect(server.count("/3/certification/movie/list") == 1)
    }

    @Test func certificationsAppendedToTheDetailsNeedNoMoreRequests() async throws {
        let server = try await FakeTMDB.serving(try Self.certified())
        let patient = AddCheckServiceTests.patient
        try await CatalogServiceTests.run(server, MemoryReplica([]), LogRecorder(), policy: patient) { service in
            let check = await service.checkCeiling(Self.toyStory, ceiling: "PG")
            #expect(check.verdict == .allowed && check.certification == "G")
            #expect(check.refusal(title: "Toy Story", list: "kids") == nil)
            #expect(await service.pendingReason(Self.toyStory) != nil)  // the details are cached for the describe
        }
        #expect(server.count("/3/movie/862") == 1 && server.count("/3/movie/862/release_dates") == 0)
        #expect(
            server.requests.first { $0.path == "/3/movie/862" }?.query["append_to_response"]
                == "watch/providers,release_dates"
        )
    }

    @Test func aMovieWithNoCertificationIsUnratedAndSaysHowToAddIt() async throws {
        let server = try await FakeTMDB.serving(try Self.certified())
        let patient = AddCheckServiceTests.patient
        try await CatalogServiceTests.run(server, MemoryReplica([]), LogRecorder(), policy: patient) { service in
            let check = await service.checkCeiling(Self.archivist, ceiling: "PG")
            #expect(check.verdict == .unrated && check.isUnrated)
            #expect(
                check.refusal(title: "The Archivist", list: "kids")
                    == "The Archivist has no certification in US; a member of kids who is not a profile may add it "
                    + "with --allow-unrated"
            )
        }
    }

    @Test func noAnswerInTimeIsUnknownNotAllowed() async throws {
        let server = try await FakeTMDB.start { _, _ in .stall }
        let policy = FetchPolicy(addCheckWait: .milliseconds(50))
        try await CatalogServiceTests.run(server, MemoryReplica([]), LogRecorder(), policy: policy) { service in
            let check = await service.checkCeiling(Self.matrix, ceiling: "PG")
            #expect(check.verdict == .unknown("no answer within 50 ms") && check.isUnrated)
            #expect(check.refusal(title: "The Matrix", list: "kids")?.hasPrefix("could not learn") == true)
        }
    }

    @Test func aFailingTMDBIsUnknown() async throws {
        let server = try await FakeTMDB.start { _, _ in .body(.internalServerError, Array("{}".utf8)) }
        let patient = AddCheckServiceTests.patient
        try await CatalogServiceTests.run(server, MemoryReplica([]), LogRecorder(), policy: patient) { service in
            guard case .unknown = await service.checkCeiling(Self.matrix, ceiling: "PG").verdict else {
                Issue.record("a 500 did not make the certification unknown")
                return
            }
        }
    }

    @Test func aCeilingTheRegionDoesNotRankRefusesAndSaysSo() async throws {
        let server = try await FakeTMDB.serving(try Self.certified())
        let patient = AddCheckServiceTests.patient
        try await CatalogServiceTests.run(server, MemoryReplica([]), LogRecorder(), policy: patient) { service in
            let check = await service.checkCeiling(Self.toyStory, ceiling: "PG", region: "DE")
            #expect(check.verdict == .ceilingUnknown && !check.isUnrated)
            #expect(check.refusal(title: "Toy Story", list: "kids")?.contains("no certification in DE") == true)
        }
    }

    /// The order and a movie's certifications are on disk: a restart asks TMDB for neither.
    @Test func aRestartAsksTMDBNothingAgain() async throws {
        let state = try ScratchDirectory("ceiling")
        defer { state.remove() }
        let cache = state.path.appending("tmdb")
        let patient = AddCheckServiceTests.patient
        var asked: [[String]] = []
        for _ in 0..<2 {
            let server = try await FakeTMDB.serving(try Self.certified())
            try await CatalogServiceTests.run(server, MemoryReplica([]), LogRecorder(), policy: patient, cache: cache) {
                service in
                #expect(await service.checkCeiling(Self.matrix, ceiling: "PG").verdict == .above)
            }
            asked.append(server.requests.map(\.path).filter { $0 != "/3/configuration" })
        }
        #expect(asked[0].count == 3 && asked[1].isEmpty)
    }

    @Test func aDiscoverCeilingAsksTMDBForCertifiedMoviesOnly() async throws {
        let server = try await FakeTMDB.serving(["/3/discover/movie": try Fixtures.bytes("search-matrix-page1.json")])
        let filter = DiscoverFilter(certificationCountry: "US", maxCertification: "PG")
        let list = DiscoverList(.popular, filter: filter)
        #expect(list.invalidReason == nil && list.description == "popular · up to PG in US")
        try await withClient(server) { client in
            _ = try await client.lookup(.discover(list, page: 1))
        }
        let query = server.requests.first?.query ?? [:]
        #expect(server.requests.first?.path == "/3/discover/movie")
        #expect(query["certification_country"] == "US" && query["certification.lte"] == "PG")
        #expect(DiscoverList(filter: DiscoverFilter(maxCertification: "PG")).invalidReason != nil)
        #expect(
            DiscoverList(filter: DiscoverFilter(certificationCountry: "us", maxCertification: "PG")).invalidReason
                != nil
        )
    }

    /// A machine without a token asks a holder (a `certification` query) and decides from its answer as the
    /// holder would.
    @Test func aHoldersAnswerToACertificationQueryDecidesAsTheHolderWould() async throws {
        let server = try await FakeTMDB.serving(try Self.certified())
        let found = try await withClient(server) { client in
            try await client.lookup(.certification(Self.matrix, region: "US"))
        }
        guard case .certification(let record) = found else {
            Issue.record("a certification query found \(found)")
            return
        }
        #expect(
            record == CertificationRecord(region: "US", certification: "R", order: ["G", "PG", "PG-13", "R", "NC-17"])
        )
        #expect(CeilingCheck(record, ceiling: "PG").verdict == .above)
        #expect(CeilingCheck(record, ceiling: "NC-17").verdict == .allowed)
        let unrated = CertificationRecord(region: "US", certification: nil, order: record.order)
        #expect(CeilingCheck(unrated, ceiling: "PG").verdict == .unrated)
        #expect(CatalogQuery.Ask.certification(Self.matrix, region: "us").invalidReason != nil)
    }
}
