import PeerdModel
import PeerdWire
import Testing

@Suite("Catalog queries on the wire")
struct CatalogExchangeTests {
    /// A later version's kind reaches the holder as `unknown`, which it answers with `bad-request`:
    /// the session must not close for it.
    @Test func aQueryOfAKindThisVersionDoesNotKnowDecodesAsUnknown() throws {
        let body = Array(#"{"type":"query","id":5,"kind":"discover","list":"popular"}"#.utf8)
        let message = try WireCoding.decode(PeerMessage.self, from: body)
        #expect(message == .query(CatalogQuery(id: 5, ask: .unknown(kind: "discover"))))
    }

    @Test(arguments: [
        #"{"type":"query","id":5,"kind":"search","text":""}"#,
        #"{"type":"query","id":5,"kind":"search","text":"dune","page":0}"#,
        #"{"type":"query","id":5,"kind":"search"}"#,
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

    @Test func aSearchWithoutAPageAsksForTheFirst() throws {
        let body = Array(#"{"type":"query","id":1,"kind":"search","text":"dune","year":2021}"#.utf8)
        let message = try WireCoding.decode(PeerMessage.self, from: body)
        #expect(message == .query(CatalogQuery(id: 1, ask: .search(text: "dune", year: 2021, page: 1))))
    }
}
