import PeerdModel
import PeerdWire
import Testing

@Suite("Catalog queries on the wire")
struct CatalogExchangeTests {
    /// A later version's kind reaches the holder as `unknown`, which it answers with `bad-request`:
    /// the session must not close for it.
    @Test func aQueryOfAKindThisVersionDoesNotKnowDecodesAsUnanswerable() throws {
        let body = Array(#"{"type":"query","id":5,"kind":"credits","movie":603}"#.utf8)
        let message = try WireCoding.decode(PeerMessage.self, from: body)
        let ask = CatalogQuery.Ask.unanswerable(kind: "credits", reason: "unknown query kind 'credits'")
        #expect(message == .query(CatalogQuery(id: 5, ask: ask)))
    }

    /// A later version's list, or filters on a list they don't narrow, are read as they came (so they
    /// re-encode the same) and answered `bad-request` by the holder.
    @Test(arguments: [
        (#"{"type":"query","id":5,"kind":"discover","list":"cult"}"#, "unknown list 'cult'"),
        (#"{"type":"query","id":5,"kind":"discover","list":"upcoming","year":1999}"#, "filters narrow"),
        (#"{"type":"query","id":5,"kind":"discover","minRating":11}"#, "a least rating is 0 to 10"),
    ])
    func aDiscoverOfAListThisVersionCantAskIsKeptAndRefused(body: String, reason: String) throws {
        let message = try WireCoding.decode(PeerMessage.self, from: Array(body.utf8))
        guard case .query(let query) = message, case .discover = query.ask else {
            Issue.record("decoded as \(message)")
            return
        }
        #expect(query.ask.invalidReason?.contains(reason) == true)
        #expect(try WireCoding.decode(PeerMessage.self, from: WireCoding.encode(message)) == message)
    }

    @Test func eachKindRoundTrips() throws {
        let filter = DiscoverFilter(genre: 35, year: 1999, maxRuntime: 110, minRating: 7.5)
        let asks: [CatalogQuery.Ask] = [
            .search(text: "dune", year: 2021, page: 2), .discover(DiscoverList(), page: 1),
            .discover(DiscoverList(.topRated, filter: filter), page: 3),
            .discover(DiscoverList(.trendingWeek), page: 1),
            .similar(MovieID(603)!, page: 2), .genres, .find(imdb: "tt0133093"),
        ]
        for ask in asks {
            let message = PeerMessage.query(CatalogQuery(id: 9, ask: ask))
            #expect(try WireCoding.decode(PeerMessage.self, from: WireCoding.encode(message)) == message)
        }
        let page = SearchResultsRecord(query: "popular", page: 1, totalPages: 1, totalResults: 0, results: [])
        let found: [CatalogAnswer.Found] = [.movies(page), .genres([GenreRecord(id: 35, name: "Comedy")])]
        for result in found {
            let message = PeerMessage.answer(CatalogAnswer(id: 9, outcome: .success(result)))
            #expect(try WireCoding.decode(PeerMessage.self, from: WireCoding.encode(message)) == message)
        }
    }

    @Test(arguments: [
        #"{"type":"query","id":5,"kind":"search","text":""}"#,
        #"{"type":"query","id":5,"kind":"search","text":"dune","page":0}"#,
        #"{"type":"query","id":5,"kind":"search"}"#,
        #"{"type":"query","id":5,"kind":"similar"}"#,
        #"{"type":"query","id":5,"kind":"genres","page":501}"#,
        #"{"type":"answer","id":5}"#,
    ])
    func aMalformedQueryOrAnswerIsAMalformedFrame(body: String) {
        #expect(throws: WireError.self) { try WireCoding.decode(PeerMessage.self, from: Array(body.utf8)) }
        do {
            _ = try WireCoding.decode(PeerMessage.self, from: Array(body.utf8))
        } catch let error as WireError {
            #expect(error.code == .malformedFrame)
        } catch {
            Issue.record("not a WireError: \(error)")
        }
    }

    @Test(arguments: ["tt0133093", "tt10838180"])
    func anIMDbIdIsAskedAsItIs(_ imdb: String) {
        #expect(CatalogQuery.Ask.find(imdb: imdb).invalidReason == nil)
    }

    @Test(arguments: ["tt013309", "tt01330930000", "nm0000206", "tt0133093 ", "TT0133093"])
    func anythingElseIsNotAnIMDbId(_ imdb: String) {
        #expect(
            CatalogQuery.Ask.find(imdb: imdb).invalidReason == "an IMDb id is tt and 7 to 10 digits, like tt0133093"
        )
    }

    @Test func aSearchWithoutAPageAsksForTheFirst() throws {
        let body = Array(#"{"type":"query","id":1,"kind":"search","text":"dune","year":2021}"#.utf8)
        let message = try WireCoding.decode(PeerMessage.self, from: body)
        #expect(message == .query(CatalogQuery(id: 1, ask: .search(text: "dune", year: 2021, page: 1))))
    }
}
