import Foundation
import PeerdCatalog
import PeerdCodec
import PeerdModel
import PeerdTestKit
import PeerdWire
import SystemPackage
import Testing

/// `MovieDetails` has one JSON form (`MovieDetails.Fields`), which a describe carries, the details
/// cache stores and `show` answers. Details with every field set go through each of them and must
/// come back the same, in the bytes the protocol has always had: a field one of them dropped, or
/// wrote under another name, fails here.
@Suite struct MovieDetailsFormsTests {
    /// The Matrix with every field set (the first test says if one is not).
    static let matrix = MovieDetails(
        .init(
            title: "The Matrix",
            originalTitle: "The Matrix",
            releaseDate: "1999-03-31",
            runtime: 136,
            genres: ["Action", "Science Fiction"],
            overview: "Set in the 22nd century, The Matrix tells the story of a computer hacker.",
            posterPath: "/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg",
            voteAverage: 822,
            imdbID: "tt0133093",
            providers: WatchProviders(
                region: "US",
                link: "https://www.themoviedb.org/movie/603-the-matrix/watch?locale=US",
                stream: [.init(id: 8, name: "Netflix", logoPath: "/pbpMk2JmcoNnQwx5JGpXngfoWtp.jpg")],
                rent: [.init(id: 2, name: "Apple TV")],
                buy: [.init(id: 2, name: "Apple TV")]
            ),
            language: "en-US",
            fetchedAt: 1_763_700_070_000
        )
    )

    /// Its canonical JSON, as in proto/golden/peer-ops-describe.bin (there with a longer overview,
    /// and where to watch it in peer-ops-describe-providers.bin).
    static let canonical =
        #"{"fetchedAt":1763700070000,"genres":["Action","Science Fiction"],"imdbId":"tt0133093","#
        + #""language":"en-US","originalTitle":"The Matrix","#
        + #""overview":"Set in the 22nd century, The Matrix tells the story of a computer hacker.","#
        + #""posterPath":"/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg","#
        + #""providers":{"buy":[{"id":2,"name":"Apple TV"}],"#
        + #""link":"https://www.themoviedb.org/movie/603-the-matrix/watch?locale=US","region":"US","#
        + #""rent":[{"id":2,"name":"Apple TV"}],"#
        + #""stream":[{"id":8,"logoPath":"/pbpMk2JmcoNnQwx5JGpXngfoWtp.jpg","name":"Netflix"}]},"#
        + #""releaseDate":"1999-03-31","runtime":136,"#
        + #""title":"The Matrix","voteAverage":822}"#

    @Test func theFixtureSetsEveryFieldAndEachFieldHasAKey() throws {
        let fields = Mirror(reflecting: Self.matrix.fields).children
        for field in fields {
            #expect(Self.isSet(field.value), "set \(field.label ?? "a field") here, so the round trips check it")
        }
        let object = try JSONDecoder().decode([String: JSONValue].self, from: Data(Self.canonical.utf8))
        #expect(object.count == fields.count, "every field has its own key in the JSON")
    }

    @Test func aDescribeCarriesEveryFieldInCanonicalForm() throws {
        let describe = PeerdModel.Operation(
            id: OperationID(origin: PeerID("e47d41781ad71e3c12901eaf77360415")!, seq: 6),
            lamport: 11,
            at: 1_763_700_070_000,
            by: "alice",
            kind: .describe,
            movie: Movie(id: MovieID(603)!),
            details: Self.matrix
        )
        let json = OperationJSON.encode(describe)
        #expect(String(decoding: json, as: UTF8.self).contains(#","details":\#(Self.canonical),"#))
        var reader = OperationJSONReader()
        let fast = try #require(json.withUnsafeBytes { reader.read($0) })
        #expect(fast.details == Self.matrix && fast.verbatim == nil)
        let general = try JSONDecoder().decode(PeerdModel.Operation.self, from: Data(json))
        #expect(general.details == Self.matrix && general.verbatim == nil)
    }

    @Test func theCacheKeepsEveryFieldInTheFilesItAlwaysWrote() async throws {
        let directory = try ScratchDirectory("catalog")
        defer { directory.remove() }
        let cache = DetailsCache(directory: directory.path.appending("tmdb"))
        try await cache.store(Self.matrix, of: MovieID(603)!)
        #expect(await cache.details(of: MovieID(603)!, language: "en-US") == Self.matrix)
        let file = try String(contentsOfFile: cache.directory.appending("movie-603.en-US.json").string, encoding: .utf8)
        let escapedSlashes = Self.canonical.replacingOccurrences(of: "/", with: #"\/"#)
        #expect(file == #"{"details":\#(escapedSlashes),"movie":603,"version":1}"#)
    }

    @Test func aCacheFileWithAnEmptyGenresListStillReads() async throws {
        let directory = try ScratchDirectory("catalog")
        defer { directory.remove() }
        try directory.write(
            #"{"details":{"fetchedAt":1,"genres":[],"language":"en-US","title":"T"},"movie":603,"version":1}"#,
            to: "tmdb/movie-603.en-US.json"
        )
        let cache = DetailsCache(directory: directory.path.appending("tmdb"))
        #expect(
            await cache.details(of: MovieID(603)!, language: "en-US")
                == MovieDetails(.init(title: "T", language: "en-US", fetchedAt: 1))
        )
    }

    @Test func showAnswersEveryFieldBesideThePostersURL() throws {
        let poster = "https://image.tmdb.org/t/p/w500/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg"
        let record = DetailsRecord(Self.matrix, posterURL: poster)
        let shown = ControlResponse.shown(ShownRecord(movie: nil, details: record, describedBy: nil, pending: nil))
        let body = WireCoding.encode(shown)
        let withURL = Self.canonical.replacingOccurrences(
            of: #","providers""#,
            with: #","posterURL":"\#(poster)","providers""#
        )
        #expect(String(decoding: body, as: UTF8.self) == #"{"details":\#(withURL),"type":"shown"}"#)
        #expect(try WireCoding.decode(ControlResponse.self, from: body) == shown)
    }

    /// Whether a field's value is there: an optional holds one, a collection is not empty (through a
    /// property wrapper too).
    private static func isSet(_ value: Any) -> Bool {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional: return mirror.children.first.map { isSet($0.value) } ?? false
        case .collection, .dictionary, .set: return !mirror.children.isEmpty
        case .struct where mirror.children.first?.label == "wrappedValue": return isSet(mirror.children.first!.value)
        default: return true
        }
    }
}
