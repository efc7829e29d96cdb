import PeerdImport
import PeerdWire
import Testing

/// The CSV Letterboxd imports, which peerd's letterboxd export writes: columns in any order.
@Suite("Letterboxd's import CSV")
struct LetterboxdImportTests {
    @Test func columnsInAnyOrderGiveSeenRatedOrWantedRows() throws {
        let file = try ImportFile.open(Fixtures.path("letterboxd-import.csv"))
        #expect(file.format == .letterboxdImport)
        #expect(
            file.rows == [
                ImportRow(
                    line: 2,
                    tmdb: 603,
                    imdb: "tt0133093",
                    title: "The Matrix",
                    year: 1999,
                    seen: true,
                    seenOn: "2023-01-31",
                    rating: 10
                ),
                ImportRow(line: 3, title: "Crouching Tiger, Hidden Dragon", year: 2000, rating: 7),
                ImportRow(line: 4, tmdb: 949, title: "Heat", year: 1995, want: true),
                ImportRow(line: 5, imdb: "tt0211915", title: "Amélie", year: 2001, seen: true, seenOn: "2023-02-03"),
            ]
        )
    }

    @Test func letterboxdsStarRatingIsReadWhenRating10IsAbsent() throws {
        let csv = "Title,Year,Rating\nHeat,1995,4.5\n"
        #expect(try ImportFile.read(Array(csv.utf8), name: "films.csv").rows.first?.rating == 9)
    }
}
