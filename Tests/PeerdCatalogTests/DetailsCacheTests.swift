import Foundation
import PeerdCatalog
import PeerdModel
import PeerdTestKit
import SystemPackage
import Testing

@Suite struct DetailsCacheTests {
    static let matrix = MovieID(603)!

    static func details(language: String = "en-US") throws -> MovieDetails {
        try TMDBResponses.details(Fixtures.bytes("movie-603.json"), language: language, fetchedAt: 1_763_700_070_000)
    }

    @Test func storedDetailsComeBackTheSame() async throws {
        let directory = try ScratchDirectory("catalog")
        defer { directory.remove() }
        let cache = DetailsCache(directory: directory.path.appending("tmdb"))
        #expect(await cache.details(of: Self.matrix, language: "en-US") == nil)
        try await cache.store(Self.details(), of: Self.matrix)
        #expect(await cache.details(of: Self.matrix, language: "en-US") == (try Self.details()))
        #expect(await cache.details(of: Self.matrix, language: "fr-FR") == nil)
        #expect(await cache.details(of: MovieID(550)!, language: "en-US") == nil)
    }

    @Test func theFolderAndFilesAreOnlyTheOwners() async throws {
        let directory = try ScratchDirectory("catalog")
        defer { directory.remove() }
        let cache = DetailsCache(directory: directory.path.appending("tmdb"))
        try await cache.store(Self.details(), of: Self.matrix)
        let folder = try cache.directory.stat()
        let file = try cache.directory.appending("movie-603.en-US.json").stat()
        #expect(folder.permissions.rawValue & 0o777 == 0o700)
        #expect(file.permissions.rawValue & 0o777 == 0o600)
    }

    @Test(arguments: ["", "{", "{\"version\":1,\"movie\":604,\"details\":{}}", "[1,2,3]"])
    func aCorruptFileIsIgnored(content: String) async throws {
        let directory = try ScratchDirectory("catalog")
        defer { directory.remove() }
        try directory.write(content, to: "tmdb/movie-603.en-US.json")
        let cache = DetailsCache(directory: directory.path.appending("tmdb"))
        #expect(await cache.details(of: Self.matrix, language: "en-US") == nil)
    }

    @Test func detailsOfAnotherMovieUnderThisOnesNameAreIgnored() async throws {
        let directory = try ScratchDirectory("catalog")
        defer { directory.remove() }
        let cache = DetailsCache(directory: directory.path.appending("tmdb"))
        try await cache.store(Self.details(), of: MovieID(604)!)
        let wrong = cache.directory.appending("movie-604.en-US.json")
        let right = cache.directory.appending("movie-603.en-US.json")
        try FileManager.default.moveItem(atPath: wrong.string, toPath: right.string)
        #expect(await cache.details(of: Self.matrix, language: "en-US") == nil)
    }

    @Test func theImageBaseIsKept() async throws {
        let directory = try ScratchDirectory("catalog")
        defer { directory.remove() }
        let cache = DetailsCache(directory: directory.path.appending("tmdb"))
        #expect(await cache.imageBase() == nil)
        try await cache.storeImageBase("https://image.tmdb.org/t/p/w500")
        #expect(await cache.imageBase() == "https://image.tmdb.org/t/p/w500")
    }
}
