import PeerdImport
import PeerdWire
import Testing

/// Letterboxd's export: the ZIP with its four CSV files read in order, the rest ignored; one CSV alone.
@Suite("Letterboxd")
struct LetterboxdTests {
    @Test func theExportIsReadWatchedThenDiaryThenRatingsThenWatchlistAndNothingElse() throws {
        let file = try ImportFile.read(Fixtures.zip(folder: "letterboxd"), name: "letterboxd-alice.zip")
        #expect(file.format == .letterboxdZIP)
        #expect(
            file.rows.map { "\($0.file ?? "-"):\($0.line)" } == [
                "watched.csv:2", "watched.csv:3", "watched.csv:4", "watched.csv:5", "watched.csv:6",
                "diary.csv:2", "diary.csv:3", "diary.csv:4", "diary.csv:5",
                "ratings.csv:2", "ratings.csv:3", "ratings.csv:4",
                "watchlist.csv:2", "watchlist.csv:3", "watchlist.csv:4", "watchlist.csv:5", "watchlist.csv:6",
            ]
        )
        let titles = Set(file.rows.compactMap(\.title))
        #expect(!titles.contains("Deleted Diary Film") && !titles.contains("Liked Film"), "deleted/ and likes/")
        #expect(!titles.contains("Listed Film"), "lists/")
        #expect(file.rows.allSatisfy { $0.tmdb == nil && $0.imdb == nil && !$0.list }, "Letterboxd has no ids")
    }

    @Test func watchedRowsAreSeenOnTheirDateWithQuotedCommasNonASCIIAndMissingYears() throws {
        let rows = try ImportFile.read(Fixtures.zip(folder: "letterboxd"), name: "export.zip").rows
            .filter { $0.file == "watched.csv" }
        #expect(
            rows.map(\.title) == [
                "The Matrix", "Crouching Tiger, Hidden Dragon", "Amélie", "千と千尋の神隠し", "Untitled Home Movie",
            ]
        )
        #expect(rows.map(\.year) == [1999, 2000, 2001, 2001, nil])
        #expect(rows.map(\.seenOn) == ["2023-01-02", "2023-01-03", "2023-01-04", "2023-01-05", "2023-01-06"])
        #expect(rows.allSatisfy { $0.seen && !$0.want && $0.rating == nil })
    }

    @Test func diaryRowsAreSeenOnTheWatchedDateWithTheirStarsTimesTwo() throws {
        let rows = try ImportFile.read(Fixtures.zip(folder: "letterboxd"), name: "export.zip").rows
            .filter { $0.file == "diary.csv" }
        #expect(rows.map(\.title) == ["The Matrix", "The Matrix", "Amélie", "Cats"], "a rewatch repeats the movie")
        #expect(rows.map(\.seenOn) == ["2023-01-31", "2023-02-01", "2023-02-03", "2023-02-04"])
        #expect(rows.map(\.rating) == [10, 9, nil, 1])
        #expect(rows.allSatisfy { $0.seen })
    }

    @Test func ratingsAreStarsTimesTwoAndAnythingElseIsSkippedWithItsLine() throws {
        let file = try ImportFile.read(Fixtures.zip(folder: "letterboxd"), name: "export.zip")
        let rows = file.rows.filter { $0.file == "ratings.csv" }
        #expect(rows.map(\.rating) == [10, 7, 1])
        #expect(rows.allSatisfy { !$0.seen && !$0.want })
        #expect(
            file.skipped == [
                SkippedRow(
                    file: "ratings.csv",
                    line: 5,
                    title: "A Broken Scale",
                    reason: "Rating \"7\" is not 0.5 to 5 stars in halves"
                )
            ]
        )
    }

    @Test func theWatchlistIsWantedAndKeepsItsDuplicatesAndEscapedQuotes() throws {
        let rows = try ImportFile.read(Fixtures.zip(folder: "letterboxd"), name: "export.zip").rows
            .filter { $0.file == "watchlist.csv" }
        #expect(
            rows.map(\.title) == [
                "Heat", "The Good, the Bad and the Ugly", "The \"Burbs\"", "A Title That TMDB Does Not Have", "Heat",
            ]
        )
        #expect(rows.allSatisfy { $0.want && !$0.seen && $0.seenOn == nil })
    }

    /// Unpacked and zipped again, the files sit in one folder: still read, and still not deleted/diary.csv.
    @Test func anExportZippedAgainInsideItsFolderIsReadTheSame() throws {
        let folder = "letterboxd-alice-2024-01-01-12-00-utc/"
        let file = try ImportFile.read(Fixtures.zip(folder: "letterboxd", prefix: folder), name: "again.zip")
        #expect(file.format == .letterboxdZIP)
        #expect(file.rows.count == 17)
        #expect(file.rows.first?.file == folder + "watched.csv")
    }

    @Test(arguments: [
        ("watched.csv", ImportFormat.letterboxdWatched), ("diary.csv", .letterboxdDiary),
        ("ratings.csv", .letterboxdRatings), ("watchlist.csv", .letterboxdWatchlist),
    ])
    func oneCSVOfTheExportIsKnownByItsHeader(name: String, format: ImportFormat) throws {
        let file = try ImportFile.open(Fixtures.path("letterboxd/\(name)"))
        #expect(file.format == format)
        #expect(file.rows.allSatisfy { $0.file == nil })
    }

    @Test func watchlistAndWatchedShareAHeaderSoTheNameTellsThem() throws {
        let bytes = try Fixtures.bytes("letterboxd/watchlist.csv")
        #expect(try ImportFile.read(bytes, name: "/tmp/My-Watchlist (2).csv").format == .letterboxdWatchlist)
        #expect(try ImportFile.read(bytes, name: "watched-2024.csv").format == .letterboxdWatched)
        let error = #expect(throws: ImportError.self) { try ImportFile.read(bytes, name: "letterboxd.csv") }
        #expect(error?.description.contains("Rename it watchlist.csv or watched.csv") == true)
    }

    /// watched.csv starts with a byte order mark: its header is still `Date`, and its first row line 2.
    @Test func aByteOrderMarkIsDropped() throws {
        #expect(try Fixtures.bytes("letterboxd/watched.csv").starts(with: [0xEF, 0xBB, 0xBF]))
        let file = try ImportFile.open(Fixtures.path("letterboxd/watched.csv"))
        #expect(file.rows.first?.seenOn == "2023-01-02" && file.rows.first?.line == 2)
    }

    @Test func starsMapToTenthsExactlyFromHalfAStarToFive() throws {
        let stars = ["0.5", "1", "1.5", "2", "2.5", "3", "3.5", "4", "4.5", "5", "5.0"]
        let bad = ["0", "5.5", "3.3", "10", "-1", "½", "four"]
        let text =
            (["Date,Name,Year,Letterboxd URI,Rating"] + (stars + bad).map { "2023-01-01,Film \($0),2000,u,\($0)" })
            .joined(separator: "\n")
        let file = try ImportFile.read(Array(text.utf8), name: "ratings.csv")
        #expect(file.rows.map(\.rating) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10])
        #expect(file.skipped.map(\.title) == bad.map { "Film \($0)" })
    }
}
