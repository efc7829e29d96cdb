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

    @Test func theGroupsRegionOverridesTheLanguages() throws {
        let body = try Fixtures.bytes("movie-550-providers.json")
        let offers = try TMDBResponses.details(body, language: "en-US", region: "DE", fetchedAt: 1).providers
        #expect(offers?.region == "DE" && offers?.rent.map(\.name) == ["Apple TV", "Google Play Movies"])
    }

    /// `/3/watch/providers/movie?watch_region=DE`, in TMDB's shape: the region's display order, and
    /// entries without an id or a name left out.
    @Test func aRegionsServicesComeInItsDisplayOrder() throws {
        let body = Array(
            #"""
            {"results":[
              {"display_priorities":{"DE":3,"US":0},"display_priority":0,"logo_path":"/n.jpg","provider_name":"Netflix","provider_id":8},
              {"display_priorities":{"DE":1},"display_priority":1,"logo_path":"/m.jpg","provider_name":"MUBI","provider_id":11},
              {"display_priorities":{"DE":2},"display_priority":2,"provider_name":"","provider_id":3},
              {"display_priority":4,"provider_name":"Joyn","provider_id":304}
            ]}
            """#.utf8
        )
        let services = try TMDBResponses.regionProviders(body, region: "DE")
        #expect(services.map(\.name) == ["MUBI", "Netflix", "Joyn"])
        #expect(services.first?.logoPath == "/m.jpg" && services.last?.logoPath == nil)
    }

    /// Nothing offered in the region is said, with the region: the describe tells which region it
    /// looked in, so a group that chose that region doesn't fetch it again; so does a body without
    /// `watch/providers` at all (else such a TMDB would have every movie fetched over and over).
    @Test func aRegionTMDBListsNothingForHasEmptyProvidersOfThatRegion() throws {
        #expect(try Self.details(language: "fr-FR").providers == WatchProviders(region: "FR"))
        #expect(
            try TMDBResponses.details(Fixtures.bytes("movie-603.json"), language: "en-US", fetchedAt: 1).providers
                == WatchProviders(region: "US")
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
