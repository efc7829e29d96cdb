import Foundation
import PeerdCatalog
import PeerdModel
import Testing

/// `append_to_response=watch/providers` on `/3/movie/{id}`: where to watch it, in the region of the
/// fetcher's language, carried in the describe.
@Suite struct WatchProvidersTests {
    static func details(language: String) throws -> MovieDetails {
        try TMDBResponses.details(Fixtures.bytes("movie-550-providers.json"), language: language, fetchedAt: 1)
    }

    @Test func theOffersOfTheLanguagesRegionComeInTMDBsOrder() throws {
        let us = try #require(try Self.details(language: "en-US").providers)
        #expect(us.region == "US")
        #expect(us.stream.map(\.name) == ["Disney Plus", "Hulu", "MUBI", "Max"])
        #expect(us.stream.first?.id == 337 && us.stream.first?.logoPath?.hasPrefix("/") == true)
        #expect(us.rent.isEmpty && us.buy.isEmpty)
        #expect(us.link == "https://www.themoviedb.org/movie/550-fight-club/watch?locale=US")
        let de = try #require(try Self.details(language: "de-DE").providers)
        #expect(de.stream.isEmpty && de.rent.map(\.name) == ["Apple TV", "Google Play Movies"] && de.buy.count == 2)
    }

    @Test func aRegionTMDBListsNothingForHasNoProviders() throws {
        #expect(try Self.details(language: "fr-FR").providers == nil)
        #expect(
            try TMDBResponses.details(Fixtures.bytes("movie-603.json"), language: "en-US", fetchedAt: 1).providers
                == nil
        )
    }

    @Test(arguments: [("en-US", "US"), ("pt-BR", "BR"), ("en", "US"), ("zh-Hant-TW", "TW"), ("de-de", "DE")])
    func aLanguageNamesItsRegion(language: String, region: String) {
        #expect(TMDBResponses.region(of: language) == region)
    }

    @Test func providersOverTheLimitsAreRefused() {
        let many = (0...WatchProviders.maxPerKind).map { WatchProviders.Provider(id: $0, name: "P\($0)") }
        #expect(WatchProviders(region: "US", stream: many).invalidReason != nil)
        #expect(WatchProviders(region: "usa").invalidReason != nil)
        #expect(WatchProviders(region: "US", link: "http://example.com").invalidReason != nil)
        #expect(WatchProviders(region: "US", stream: [.init(id: 8, name: "")]).invalidReason != nil)
        #expect(WatchProviders(region: "US", stream: Array(many.prefix(20))).invalidReason == nil)
    }

    /// They travel in the describe: its JSON holds them, and reads back the same.
    @Test func theyRoundTripThroughTheDetailsJSON() throws {
        let details = try Self.details(language: "en-US")
        let json = try JSONEncoderForTests.encode(details)
        #expect(json.contains(#""providers":{"link":"https:"#))
        #expect(try JSONEncoderForTests.decode(json) == details)
    }
}

enum JSONEncoderForTests {
    static func encode(_ details: MovieDetails) throws -> String {
        let encoder = Foundation.JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(details), as: UTF8.self)
    }

    static func decode(_ json: String) throws -> MovieDetails {
        try Foundation.JSONDecoder().decode(MovieDetails.self, from: Data(json.utf8))
    }
}
