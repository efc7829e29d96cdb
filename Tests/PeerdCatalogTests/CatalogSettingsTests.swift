import PeerdCatalog
import SystemPackage
import Testing

@Suite struct CatalogSettingsTests {
    static let credential = try! TMDBCredential(token: TMDBCredentialTests.apiKey, source: "test")

    @Test func theDefaultsAreTMDBAndEnglish() throws {
        let settings = try CatalogSettings(credential: Self.credential, cacheDirectory: "/state/tmdb")
        #expect(settings.baseURL == "https://api.themoviedb.org")
        #expect(settings.language == "en-US")
        #expect(settings.limits == CatalogLimits())
    }

    @Test(arguments: [
        ("https://tmdb.mirror.example/", "https://tmdb.mirror.example"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"), ("http://localhost:9/api//", "http://localhost:9/api"),
        ("http://[::1]:8080", "http://[::1]:8080"),
    ])
    func httpsAndLoopbackHTTPAreAccepted(url: String, base: String) throws {
        #expect(try CatalogSettings(credential: Self.credential, cacheDirectory: "/c", baseURL: url).baseURL == base)
    }

    @Test(arguments: [
        "http://api.themoviedb.org", "ftp://x", "https://", "https://a.example/?x=1", "api.themoviedb.org",
    ])
    func anythingElseIsRefusedWithTheFlagInTheMessage(url: String) {
        let error = #expect(throws: CatalogError.self) {
            try CatalogSettings(credential: Self.credential, cacheDirectory: "/c", baseURL: url)
        }
        #expect(error.map { "\($0)".hasPrefix("--tmdb-url \(url)") } == true)
    }

    @Test(arguments: ["", "e", "en_US", "en US", "../x"])
    func aLanguageThatIsNotATagIsRefused(language: String) {
        #expect(throws: CatalogError.self) {
            try CatalogSettings(credential: Self.credential, cacheDirectory: "/c", language: language)
        }
    }
}
