import PeerdImport
import PeerdWire
import Testing

/// IMDb's list and ratings exports: `Const` is the id, `Title Type` tells movies from the rest.
@Suite("IMDb")
struct IMDbTests {
    @Test func aListIsWantedByItsIMDbIdAndItsShowsAndEpisodesAreSkipped() throws {
        let file = try ImportFile.open(Fixtures.path("imdb-watchlist.csv"))
        #expect(file.format == .imdbList)
        #expect(
            file.rows.map(\.imdb) == [
                "tt0113277", "tt0211915", "tt0190332", "tt0245429", "tt0106308", "tt0109707", "tt0113277",
            ]
        )
        #expect(file.rows.map(\.line) == [2, 4, 5, 6, 7, 9, 10])
        #expect(
            file.rows.map(\.title) == [
                "Heat", "Amélie", "Crouching Tiger, Hidden Dragon", "千と千尋の神隠し", "Army of Darkness (TV Cut)",
                "Luxo Jr.", "Heat",
            ]
        )
        #expect(file.rows.map(\.year) == [1995, 2001, 2000, 2001, 1992, nil, 1995])
        #expect(file.rows.allSatisfy { $0.want && !$0.seen && $0.rating == nil && $0.tmdb == nil })
        #expect(
            file.skipped.map { "\($0.line): \($0.reason)" } == [
                "3: not a movie (TV Series)", "8: not a movie (TV Episode)",
                "11: \"nm0000123\" is not an IMDb id (tt and 7 to 10 digits)",
            ]
        )
    }

    /// Before 2023 a list had no `Original Title`, `Your Rating` or `Date Rated`, and spelled types in camel case.
    @Test func anOlderListWithCRLFLinesIsReadTheSame() throws {
        let file = try ImportFile.open(Fixtures.path("imdb-list-old.csv"))
        #expect(file.format == .imdbList)
        #expect(file.rows.map(\.imdb) == ["tt0133093", "tt1375666"])
        #expect(file.rows.map(\.line) == [2, 4])
        #expect(file.skipped.map(\.reason) == ["not a movie (tvSeries)"])
    }

    @Test func ratingsAreRatedAndSeenWithoutADay() throws {
        let file = try ImportFile.open(Fixtures.path("imdb-ratings.csv"))
        #expect(file.format == .imdbRatings)
        #expect(file.rows.map(\.imdb) == ["tt0133093", "tt0211915", "tt0121766"])
        #expect(file.rows.map(\.rating) == [10, 8, 1])
        #expect(file.rows.allSatisfy { $0.seen && $0.seenOn == nil && !$0.want })
        #expect(
            file.skipped.map(\.reason) == [
                "not a movie (TV Series)", "Your Rating \"11\" is not a rating from 1 to 10",
            ]
        )
    }

    @Test(arguments: ["movie", "Movie", "tvMovie", "TV Movie", "video", "Video", "short", "Short"])
    func theseTitleTypesAreMovies(type: String) throws {
        let file = try ImportFile.read(Array(csv(type: type).utf8), name: "list.csv")
        #expect(file.rows.count == 1 && file.skipped.isEmpty)
    }

    @Test(arguments: [
        "tvSeries", "TV Series", "tvEpisode", "TV Episode", "tvMiniSeries", "TV Mini Series", "tvSpecial",
        "TV Special", "tvShort", "TV Short", "videoGame", "Video Game", "",
    ])
    func theseTitleTypesAreSkipped(type: String) throws {
        let file = try ImportFile.read(Array(csv(type: type).utf8), name: "list.csv")
        #expect(file.rows.isEmpty)
        #expect(file.skipped.first?.reason.hasPrefix("not a movie (") == true)
    }

    private func csv(type: String) -> String {
        "Position,Const,Title,Title Type,Year\n1,tt0133093,The Matrix,\(type),1999\n"
    }
}
