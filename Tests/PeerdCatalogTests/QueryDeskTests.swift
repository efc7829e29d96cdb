import Logging
import PeerdModel
import PeerdWire
import ServiceLifecycleTestKit
import Synchronization
import Testing

@testable import PeerdCatalog

/// ``QueryDesk`` in process, over a fake TMDB on loopback: what a holder answers a peer without a
/// token, from its cache or TMDB, and what it refuses at once (proto/PEER.md, "Catalog queries").
@Suite("A holder's desk of peers' catalog queries")
struct QueryDeskTests {
    static let asker = PeerID("b0b00000000000000000000000000002")!
    static let genres = Array(#"{"genres":[{"id":18,"name":"Drama"},{"id":35,"name":"Comedy"}]}"#.utf8)
    static let search = Array(#"{"page":1,"results":[],"total_pages":1,"total_results":0}"#.utf8)

    /// The answers of `queries`, sent together from one asker, in the order they came back.
    func answers(
        _ queries: [CatalogQuery.Ask],
        limits: QueryDesk.Limits = QueryDesk.Limits(),
        server: FakeTMDB
    ) async throws -> [CatalogAnswer] {
        try await withClient(server) { client in
            let desk = QueryDesk(client: client, limits: limits, logger: Logger(label: "test"))
            let (stream, continuation) = AsyncStream.makeStream(of: CatalogAnswer.self)
            return try await testGracefulShutdown { shutdown in
                try await withThrowingTaskGroup { group in
                    group.addTask { try await desk.run() }
                    var answers: [CatalogAnswer] = []
                    var replies = stream.makeAsyncIterator()
                    for (n, ask) in queries.enumerated() {
                        await desk.take(CatalogQuery(id: UInt64(n), ask: ask), from: Self.asker) {
                            continuation.yield($0)
                        }
                        // Each waits for its answer: the first fills the cache the others read.
                        if let answer = await replies.next() { answers.append(answer) }
                    }
                    shutdown.triggerGracefulShutdown()
                    try await group.waitForAll()
                    return answers
                }
            }
        }
    }

    @Test func cachedAnswersAreGivenWhateverTheAskersRate() async throws {
        let server = try await FakeTMDB.serving(["/3/genre/movie/list": Self.genres])
        var limits = QueryDesk.Limits()
        limits.perAsker = (.seconds(60), 2)
        let answers = try await answers(Array(repeating: .genres, count: 12), limits: limits, server: server)
        #expect(answers.count == 12)
        #expect(answers.allSatisfy { if case .success(.genres(let g)) = $0.outcome { g.count == 2 } else { false } })
        #expect(server.count("/3/genre/movie/list") == 1, "one request to TMDB for the group")
    }

    @Test func uncachedQueriesOverTheAskersRateAreRefusedAtOnce() async throws {
        let server = try await FakeTMDB.serving(["/3/search/movie": Self.search])
        var limits = QueryDesk.Limits()
        limits.perAsker = (.seconds(60), 2)
        let asks = (1...3).map { CatalogQuery.Ask.search(text: "dune \($0)", year: nil, page: 1) }
        let answers = try await answers(asks, limits: limits, server: server)
        guard case .failure(let refusal) = answers[2].outcome else {
            Issue.record("the third is refused, not \(answers[2].outcome)")
            return
        }
        #expect(refusal.code == .rateLimited && refusal.message.contains("too many queries from one peer"))
        #expect(server.count("/3/search/movie") == 2)
    }

    @Test func aMalformedQueryIsABadRequestAndAsksNobody() async throws {
        let server = try await FakeTMDB.serving([:])
        let answers = try await answers([.find(imdb: "nm0000206")], server: server)
        guard case .failure(let refusal) = answers[0].outcome else {
            Issue.record("refused")
            return
        }
        #expect(refusal.code == .badRequest)
        #expect(server.requests.isEmpty)
    }
}
