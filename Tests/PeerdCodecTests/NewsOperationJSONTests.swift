import Foundation
import PeerdCodec
import PeerdModel
import Testing

/// A news operation (proto/PEER.md, "News") in its canonical form: `news` between `movie` and
/// `op`, read back as written, by the reader and by `JSONDecoder` alike.
@Suite struct NewsOperationJSONTests {
    static let netflix = GroupSettings.Service(id: 8, name: "Netflix")
    let report = PeerdModel.Operation(
        id: OperationID(origin: PeerID("a11ce000000000000000000000000001")!, seq: 7),
        lamport: 9,
        at: 1_765_000_000_500,
        by: "alice",
        kind: .news,
        movie: Movie(id: MovieID(329_865)!, title: "Arrival", year: 2016),
        payload: .news(
            ProviderNews(
                read: 1_765_000_000_000,
                providers: WatchProviders(region: "DE", stream: [.init(id: 8, name: "Netflix", logoPath: "/n.jpg")]),
                changes: [ProviderChange(.arrived, netflix)]
            )
        )
    )

    @Test func itIsWrittenCanonicallyAndReadBack() throws {
        let json = String(decoding: OperationJSON.encode(report), as: UTF8.self)
        #expect(
            json
                == #"{"at":1765000000500,"by":"alice","lamport":9,"movie":{"id":329865,"title":"Arrival","year":2016},"#
                + #""news":{"changes":[{"change":"arrived","service":{"id":8,"name":"Netflix"}}],"#
                + #""providers":{"region":"DE","stream":[{"id":8,"logoPath":"/n.jpg","name":"Netflix"}]},"#
                + #""read":1765000000000},"op":"news","origin":"a11ce000000000000000000000000001","seq":7}"#
        )
        var reader = OperationJSONReader()
        let bytes = OperationJSON.encode(report)
        let read = try bytes.withUnsafeBytes { try reader.decode($0) }
        #expect(read == report)
        #expect(read.verbatim == nil)
        let decoded = try JSONDecoder().decode(PeerdModel.Operation.self, from: Data(bytes))
        #expect(decoded == report && decoded.verbatim == nil)
    }

    @Test func newsWithoutAChangeOrAReadingIsRefused() {
        var empty = report
        empty.payload = .news(ProviderNews(read: 1, providers: WatchProviders(region: "DE"), changes: []))
        #expect(empty.invalidReason == "news names 1 to 40 changes")
        var unread = report
        unread.payload = .news(ProviderNews(read: 0, providers: WatchProviders(region: "DE"), changes: []))
        #expect(unread.invalidReason == "news says when TMDB's data was read")
        var bare = report
        bare.payload = nil
        #expect(bare.invalidReason == "a news operation carries what changed")
    }
}
