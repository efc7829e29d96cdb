import PeerdCatalog
import PeerdModel
import PeerdWire
import Testing

@Suite struct TMDBResponsesTests {
    /// `/3/find/{imdb}`: its `movie_results` as one page; people and shows are left out.
    @Test func whatFindFoundIsAPageOfItsMovies() throws {
        let text =
            #"{"movie_results":[{"id":603,"title":"The Matrix","original_title":"The Matrix","#
            + #""release_date":"1999-03-31","overview":"A hacker."}],"person_results":[{"id":6384}],"#
            + #""tv_results":[],"tv_episode_results":[],"tv_season_results":[]}"#
        let body = Array(text.utf8)
        let page = try TMDBResponses.foundPage(body, imdb: "tt0133093")
        #expect(page.results.map(\.movieId) == [603] && page.results.first?.year == 1999)
        #expect(page.query == "tt0133093" && page.totalResults == 1)
        let none = Array(#"{"movie_results":[],"person_results":[],"tv_results":[]}"#.utf8)
        #expect(try TMDBResponses.foundPage(none, imdb: "tt0000000").results.isEmpty)
    }

    @Test func theMatrixBecomesDetailsWithEveryFieldADescribeHolds() throws {
        let details = try TMDBResponses.details(
            Fixtures.bytes("movie-603.json"),
            language: "en-US",
            fetchedAt: 1_763_700_070_000
        )
        #expect(details.title == "The Matrix")
        #expect(details.originalTitle == "The Matrix")
        #expect(details.releaseDate == "1999-03-31")
        #expect(details.year == 1999)
        #expect(details.runtime == 136)
        #expect(details.genres == ["Action", "Science Fiction"])
        #expect(details.overview?.hasPrefix("Set in the 22nd century, The Matrix") == true)
        #expect(details.posterPath == "/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg")
        #expect(details.voteAverage == 822)
        #expect(details.imdbID == "tt0133093")
        #expect(details.language == "en-US")
        #expect(details.fetchedAt == 1_763_700_070_000)
        #expect(details.invalidReason == nil)
    }

    @Test func fightClubWithANullCollectionAndQuotesInItsOverviewParses() throws {
        let details = try TMDBResponses.details(Fixtures.bytes("movie-550.json"), language: "de-DE", fetchedAt: 1)
        #expect(details.title == "Fight Club")
        #expect(details.genres == ["Drama"])
        #expect(details.voteAverage == 844)
        #expect(details.overview?.contains(#"underground "fight clubs""#) == true)
        #expect(details.language == "de-DE")
    }

    @Test func nullsZerosAndEmptyStringsBecomeAbsentFields() throws {
        let details = try TMDBResponses.details(Fixtures.bytes("movie-sparse.json"), language: "en-US", fetchedAt: 1)
        #expect(details.title == "The Archivist")
        #expect(details.releaseDate == nil)
        #expect(details.posterPath == nil)
        #expect(details.imdbID == nil)
        #expect(details.runtime == nil)
        #expect(details.voteAverage == nil)
        #expect(details.genres.isEmpty)
        #expect(details.invalidReason == nil)
    }

    @Test func anOverviewOverAThousandCharactersIsCutAndEndsWithAnEllipsis() throws {
        let details = try TMDBResponses.details(Fixtures.bytes("movie-sparse.json"), language: "en-US", fetchedAt: 1)
        let overview = try #require(details.overview)
        #expect(overview.unicodeScalars.count == 1_000)
        #expect(overview.hasSuffix("…"))
        #expect(overview.hasPrefix("In a far future, a lone archivist"))
    }

    @Test(arguments: [("8.219", 822), ("8.438", 844), ("10", 1_000), ("0.004", 0), ("7.5", 750), ("11.2", 1_000)])
    func voteAveragesBecomeHundredths(average: String, hundredths: Int) throws {
        let body = #"{"id":1,"title":"T","vote_average":\#(average),"vote_count":3}"#
        let details = try TMDBResponses.details(Array(body.utf8), language: "en-US", fetchedAt: 1)
        #expect(details.voteAverage == hundredths)
    }

    @Test func aSearchPageKeepsTMDBsPagingAndWhatEachResultHas() throws {
        let page = try TMDBResponses.searchPage(Fixtures.bytes("search-matrix-page1.json"), query: "matrix")
        #expect(page.query == "matrix")
        #expect(page.page == 1)
        #expect(page.totalPages == 3)
        #expect(page.totalResults == 47)
        #expect(page.results.map(\.movieId) == [603, 604, 684_431, 1_338_561])
        let matrix = page.results[0]
        #expect(matrix.title == "The Matrix")
        #expect(matrix.year == 1999)
        #expect(matrix.voteAverage == 822)
        #expect(matrix.posterPath == "/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg")
        let noPoster = page.results[2]
        #expect(noPoster.posterPath == nil)
        #expect(noPoster.overview == nil)
        #expect(noPoster.year == 2004)
        let noDate = page.results[3]
        #expect(noDate.year == nil)
        #expect(noDate.voteAverage == nil)
        #expect(noDate.originalTitle == "マトリックス 未来")
    }

    @Test func theConfigurationGivesTheSecurePosterBaseAtW500() throws {
        let base = try TMDBResponses.imageBase(Fixtures.bytes("configuration.json"))
        #expect(base == "https://image.tmdb.org/t/p/w500")
    }

    @Test func aConfigurationWithoutW500UsesItsLargestSizeBelowOriginal() throws {
        let body = #"{"images":{"secure_base_url":"https://img.example/t/p","poster_sizes":["w92","w342","original"]}}"#
        #expect(try TMDBResponses.imageBase(Array(body.utf8)) == "https://img.example/t/p/w342")
    }

    @Test func tmdbsErrorBodyGivesItsMessage() throws {
        #expect(
            TMDBResponses.errorMessage(try Fixtures.bytes("error-401.json"))
                == "Invalid API key: You must be granted a valid key."
        )
        #expect(
            TMDBResponses.errorMessage(try Fixtures.bytes("error-404.json"))
                == "The resource you requested could not be found."
        )
        #expect(TMDBResponses.errorMessage(Array("<html>502 Bad Gateway</html>".utf8)) == nil)
    }

    static let malformed: [String] = [
        "", "{", "[]", "null", "<html>busy</html>", #"{"id":"603","title":"The Matrix"}"#,
        #"{"id":603,"title":5}"#, #"{"title":"no id"}"#, #"{"page":1,"results":{}}"#,
        String(repeating: "[", count: 100_000), "\u{FF}\u{FE}garbage",
    ]

    @Test(arguments: malformed)
    func malformedJSONAndWrongShapesAreErrorsNeverCrashes(body: String) {
        let bytes = Array(body.utf8)
        #expect(throws: CatalogError.self) { try TMDBResponses.details(bytes, language: "en-US", fetchedAt: 1) }
        #expect(throws: CatalogError.self) { try TMDBResponses.searchPage(bytes, query: "x") }
        #expect(throws: CatalogError.self) { try TMDBResponses.imageBase(bytes) }
    }

    @Test func aWrongShapeSaysWhichField() {
        let error = #expect(throws: CatalogError.self) {
            try TMDBResponses.searchPage(
                Array(#"{"page":1,"results":[{"id":"x"}],"total_pages":1,"total_results":1}"#.utf8),
                query: "x"
            )
        }
        print("wrong shape:", error.map(String.init(describing:)) ?? "none")
        #expect(error.map { "\($0)".contains("results[0]") } == true)
    }

    @Test func aMovieWithoutATitleIsRefused() {
        #expect(throws: CatalogError.unexpectedResponse("movie 7 has no title")) {
            try TMDBResponses.details(Array(#"{"id":7,"title":""}"#.utf8), language: "en-US", fetchedAt: 1)
        }
    }
}
