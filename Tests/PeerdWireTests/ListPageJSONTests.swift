import Foundation
import PeerdModel
import PeerdWire
import PropertyBased
import Testing

/// A `list` page is written by `MovieRecordJSON` and read by `ListPageReader`, by hand: the writer
/// must produce exactly what `JSONEncoder` writes, and the reader must read it back as `JSONDecoder`
/// does, take nothing `JSONDecoder` refuses, and leave what it does not take to the general path.
@Suite("List page JSON")
struct ListPageJSONTests {
    /// What `JSONEncoder` writes for the page; every record encodes.
    private static func reference(_ page: ListPage) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try! encoder.encode(page.response))
    }

    private static func fast(_ body: [UInt8]) -> ControlResponse? {
        body.withUnsafeBytes {
            ListPageReader.read(
                $0,
                maxStringBytes: WireCoding.maxStringBytes,
                maxArrayElements: WireCoding.maxArrayElements
            )
        }
    }

    private static func general(_ body: [UInt8]) -> ControlResponse? {
        try? JSONDecoder().decode(ControlResponse.self, from: Data(body))
    }

    @Test func theWriterWritesTheBytesJSONEncoderWrites() async {
        await propertyCheck(count: 300, input: Gen.listPage) { page in
            #expect(WireCoding.encode(page.response) == Self.reference(page))
        }
    }

    @Test func theReaderReadsWhatTheWriterWritesAsJSONDecoderDoes() async {
        await propertyCheck(count: 300, input: Gen.listPage) { page in
            let body = WireCoding.encode(page.response)
            #expect(Self.fast(body) == page.response)
            #expect(Self.general(body) == page.response)
            #expect((try? WireCoding.decode(ControlResponse.self, from: body)) == page.response)
        }
    }

    /// Bytes flipped, dropped or added anywhere in a page, 32 edits of each: whatever the reader
    /// still takes, `JSONDecoder` takes too, as the same response.
    @Test func theReaderTakesNothingJSONDecoderRefusesOrReadsOtherwise() async {
        let edits: [UInt8] = Array(#"{}[]",:0-1.5eE\ tnulrf"#.utf8) + [0x00, 0x7F, 0xC3, 0xFF]
        await propertyCheck(count: 150, input: Gen.listPage, Gen.int(in: 0...1_000_000)) { page, seed in
            let written = WireCoding.encode(page.response)
            for edit in 0..<32 {
                var body = written
                let at = (seed &+ edit &* 7_919) % body.count
                let byte = edits[(seed &+ edit) % edits.count]
                switch edit % 3 {
                case 0: body[at] = byte
                case 1: body.remove(at: at)
                default: body.insert(byte, at: at)
                }
                if let read = Self.fast(body) {
                    #expect(Self.general(body) == read, "\(String(decoding: body, as: UTF8.self))")
                }
            }
        }
    }

    /// CI's mutation: a rating's exponent grown to `e-1956`, which `JSONDecoder` refuses as JSON.
    @Test func aNumberThatUnderflowsIsLeftToJSONDecoder() throws {
        let body = Array(
            #"{"movies":[{"addedAt":1,"addedBy":[],"addedByPeers":[],"averageRating":2.07e-1956,"cursor":"c","movieId":1}],"total":1,"type":"list"}"#
                .utf8
        )
        #expect(Self.fast(body) == Self.general(body))
    }

    @Test func whitespaceAndAnotherKeyOrderAreReadLikeJSONDecoderDoes() throws {
        let body = Array(
            """
            { "type" : "list", "total" : 2 , "movies" : [ { "movieId" : 603, "cursor" : "9.aa.4",
              "addedByPeers" : [ "e47d41781ad71e3c12901eaf77360415" ], "addedBy" : [ "alice" ],
              "addedAt" : -5, "averageRating" : 7.25E0, "marks" : [ { "want" : true, "veto" : false,
              "seen" : true, "seenOn" : "2026-11-20", "peer" : "e47d41781ad71e3c12901eaf77360415",
              "name" : "al\\u0069ce", "rating" : 7 } ] } ], "next" : "9.aa.4" }
            """.utf8
        )
        let read = try #require(Self.fast(body))
        #expect(read == Self.general(body))
        guard case .list(let movies, 2, "9.aa.4") = read else { Issue.record("not the page: \(read)"); return }
        #expect(movies.first?.marks.first?.name == "alice")
        #expect(movies.first?.averageRating == 7.25)
    }

    @Test func aFieldALaterVersionAddsIsReadByTheGeneralPath() throws {
        let body =
            Array(
                #"{"movies":[{"addedAt":1,"addedBy":[],"addedByPeers":[],"cursor":"c","mood":"cosy","movieId":1}],"#
                    .utf8
            ) + Array(#""total":1,"type":"list"}"#.utf8)
        #expect(Self.fast(body) == nil)
        let response = try WireCoding.decode(ControlResponse.self, from: body)
        guard case .list(let movies, 1, nil) = response else { Issue.record("not the page: \(response)"); return }
        #expect(movies.map(\.movieId) == [1])
    }

    @Test func otherResponsesAreLeftToTheGeneralPath() throws {
        let body = Array(#"{"movies":[],"total":0,"type":"lists"}"#.utf8)
        #expect(Self.fast(body) == nil)
        #expect(Self.fast(Array(#"{"code":"bad-request","message":"no","type":"error"}"#.utf8)) == nil)
        #expect(Self.fast(Array(#"{"movies":[],"total":0,"type":"list"} {}"#.utf8)) == nil)
        #expect(Self.fast(Array(#"{"movies":[],"total":0,"type":"list","type":"list"}"#.utf8)) == nil)
        #expect(Self.fast(Array(#"{"movies":[],"next":null,"total":0,"type":"list"}"#.utf8)) == nil)
        #expect(Self.fast(Array(#"{"movies":[],"total":1.0,"type":"list"}"#.utf8)) == nil)
    }

    @Test(arguments: [
        (
            #"{"movies":[{"addedAt":1,"addedBy":[],"addedByPeers":[],"movieId":1}],"total":1,"type":"list"}"#,
            "missing field 'cursor' at movies[0]"
        ),
        (
            #"{"movies":[{"addedAt":1,"addedBy":[],"addedByPeers":["XYZ"],"cursor":"c","movieId":1}],"total":1,"type":"list"}"#,
            "bad value at movies[0].addedByPeers[0]: a peer id is 8 to 64 lowercase hex digits"
        ),
        (#"{"movies":[{"addedAt":1,"#, "frame body is not valid UTF-8 JSON"),
    ])
    func aMalformedPageIsRefusedWithTheGeneralPathsError(body: String, message: String) {
        #expect(Self.fast(Array(body.utf8)) == nil)
        #expect(throws: WireError(.malformedFrame, message)) {
            try WireCoding.decode(ControlResponse.self, from: Array(body.utf8))
        }
    }

    @Test func aStringOverTheWiresLimitIsRefusedAsBefore() {
        let title = String(repeating: "a", count: WireCoding.maxStringBytes + 1)
        let body = MovieRecordJSON.listBody(
            movies: [
                MovieRecord(
                    movieId: 1,
                    title: title,
                    year: nil,
                    posterPath: nil,
                    addedBy: [],
                    addedByPeers: [],
                    addedAt: 0,
                    cursor: "c",
                    streamingOn: nil,
                    marks: [],
                    averageRating: nil
                )
            ],
            total: 1,
            next: nil
        )
        #expect(Self.fast(body) == nil)
        #expect(throws: WireError(.malformedFrame, "a JSON string is longer than \(WireCoding.maxStringBytes) bytes")) {
            try WireCoding.decode(ControlResponse.self, from: body)
        }
    }
}
