import PeerdImport
import PeerdWire
import Testing

/// Trakt's JSON: each item read by its shape; a ZIP of such files read in a fixed order.
@Suite("Trakt")
struct TraktTests {
    @Test func theWatchlistIsWantedWithWhicheverIdsItHas() throws {
        let file = try ImportFile.open(Fixtures.path("trakt/watchlist-movies.json"))
        #expect(file.format == .traktJSON)
        #expect(
            file.rows == [
                ImportRow(line: 1, tmdb: 603, imdb: "tt0133093", title: "The Matrix", year: 1999, want: true),
                ImportRow(line: 2, imdb: "tt0211915", title: "Amélie", year: 2001, want: true),
                ImportRow(line: 4, title: "Crouching Tiger, Hidden Dragon", want: true),
            ]
        )
        #expect(file.skipped == [SkippedRow(line: 3, reason: "not a movie (show)")])
    }

    @Test func historyIsSeenOnTheDayOfWatchedAtAndEpisodesAreSkipped() throws {
        let file = try ImportFile.open(Fixtures.path("trakt/history.json"))
        #expect(file.rows.map(\.tmdb) == [949, 129])
        #expect(file.rows.map(\.seenOn) == ["2023-01-05", "2023-02-01"])
        #expect(file.rows.allSatisfy { $0.seen && !$0.want })
        #expect(file.skipped.map { "\($0.line): \($0.reason)" } == ["2: not a movie (episode)"])
    }

    @Test func ratingsAreRated() throws {
        let file = try ImportFile.open(Fixtures.path("trakt/ratings-movies.json"))
        #expect(file.rows == [ImportRow(line: 1, tmdb: 949, imdb: "tt0113277", title: "Heat", year: 1995, rating: 8)])
        #expect(file.skipped.map(\.reason) == ["not a movie (show)"])
    }

    @Test func aZIPIsReadWatchedThenHistoryThenRatingsThenWatchlistAndOtherJSONIgnored() throws {
        let file = try ImportFile.read(Fixtures.zip(folder: "trakt"), name: "trakt-export.zip")
        #expect(file.format == .traktZIP)
        #expect(
            file.rows.map(\.file) == [
                "watched-movies.json", "history.json", "history.json", "ratings-movies.json", "watchlist-movies.json",
                "watchlist-movies.json", "watchlist-movies.json",
            ]
        )
        #expect(
            file.rows.first
                == ImportRow(
                    file: "watched-movies.json",
                    line: 1,
                    tmdb: 562,
                    imdb: "tt0095016",
                    title: "Die Hard",
                    year: 1988,
                    seen: true,
                    seenOn: "2022-12-24"
                )
        )
        #expect(
            file.skipped.map { "\($0.file ?? "-"):\($0.line) \($0.reason)" } == [
                "watched-shows.json:1 not a movie (show)", "history.json:2 not a movie (episode)",
                "ratings-movies.json:2 not a movie (show)", "watchlist-movies.json:3 not a movie (show)",
            ]
        )
    }

    @Test func anArrayOfSomethingElseSaysWhereItIsNotTrakts() throws {
        let error = #expect(throws: ImportError.self) {
            try ImportFile.read(Array(#"[{"movie": {"title": 5}}]"#.utf8), name: "list.json")
        }
        #expect(error?.description.contains("list.json is not the JSON of a Trakt") == true)
        #expect(error?.description.contains("at [0].movie.title: expected a string") == true)
    }
}
