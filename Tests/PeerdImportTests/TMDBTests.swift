import PeerdImport
import PeerdWire
import Testing

/// TMDB's CSV export: ids, `movie` rows only, its half-point ratings rounded half up.
@Suite("TMDB")
struct TMDBTests {
    @Test func ratedMoviesAreRatedAndSeenTheOthersWantedAndShowsSkipped() throws {
        let file = try ImportFile.open(Fixtures.path("tmdb-export.csv"))
        #expect(file.format == .tmdb)
        #expect(file.rows.map(\.tmdb) == [603, 194, 146, 949, 129])
        #expect(file.rows.map(\.imdb) == ["tt0133093", "tt0211915", "tt0190332", "tt0113277", "tt0245429"])
        #expect(file.rows.map(\.year) == [1999, 2001, 2000, 1995, nil])
        #expect(file.rows.map(\.rating) == [8, 7, 1, nil, nil], "7.5 is 8, 7.0 is 7, 0.5 is 1")
        #expect(file.rows.map(\.seen) == [true, true, true, false, false])
        #expect(file.rows.map(\.want) == [false, false, false, true, true])
        #expect(file.rows[4].title == "千と千尋の神隠し")
        #expect(file.skipped == [SkippedRow(line: 4, title: "Breaking Bad", reason: "not a movie (tv)")])
    }

    @Test(arguments: [("0.5", 1), ("1.0", 1), ("1.5", 2), ("7.4", 7), ("7.5", 8), ("9.5", 10), ("10.0", 10)])
    func aRatingIsRoundedHalfUp(text: String, rating: Int) throws {
        let csv = "TMDb ID,IMDb ID,Type,Name,Release Date,Your Rating\n603,,movie,The Matrix,,\(text)\n"
        #expect(try ImportFile.read(Array(csv.utf8), name: "tmdb.csv").rows.first?.rating == rating)
    }
}
