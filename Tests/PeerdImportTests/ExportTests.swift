import Foundation
import PeerdImport
import PeerdModel
import PeerdWire
import Testing

/// What `peerctl export` writes, and that an import of it gives back the exporting member's marks.
@Suite("Export")
struct ExportTests {
    let alice = ListRows.alice

    @Test(arguments: [ExportFormat.csv, .json])
    func anExportReadBackListsEveryMovieWithTheExportersMarks(format: ExportFormat) throws {
        let movies = try ListRows.sample()
        let bytes = ExportWriter.write(movies, format: format, me: alice, myName: "alice", mine: false)
        let file = try ImportFile.read(bytes, name: "list.\(format.rawValue)")
        #expect(file.format == (format == .csv ? .peerdCSV : .peerdJSON))
        #expect(file.rows.map(\.tmdb) == movies.map(\.movieId))
        #expect(file.rows.map(\.title) == movies.map(\.title))
        #expect(file.rows.map(\.year) == movies.map(\.year))
        #expect(file.rows.allSatisfy { $0.list })
        for (row, movie) in zip(file.rows, movies) {
            let mine = movie.marks.first { $0.peer == alice }
            #expect(row.want == (mine?.want ?? false) && row.seen == (mine?.seen ?? false))
            #expect(row.seenOn == mine?.seenOn && row.rating == mine?.rating && row.veto == (mine?.veto ?? false))
        }
    }

    @Test func theCSVHasPeerdsColumnsThenWhoAddedWantsAndSawEachMovie() throws {
        let text = String(decoding: try write(.csv), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            lines[0]
                == "tmdbID,imdbID,Title,Year,Listed,Want,Seen,WatchedDate,Rating10,Veto,AddedBy,AddedAt,WantedBy,SeenBy"
        )
        #expect(lines[1] == "603,,The Matrix,1999,yes,,yes,2023-01-31,10,,alice,2024-05-01T12:51:30Z,bob,alice")
        #expect(
            lines[2]
                == #"146,,"Crouching Tiger, Hidden Dragon",2000,yes,yes,,,,yes,bob; alice,2024-05-01T12:51:30Z,alice,"#
        )
        #expect(lines[3] == #"12345,,"The ""Burbs""",,yes,,,,,,bob,2024-05-01T12:51:30Z,,bob"#)
        #expect(lines.last == "", "every line ends in \\n")
        #expect(!text.contains("\r"))
    }

    @Test func theJSONHasEveryFieldOfEveryRowAndWhoExportedIt() throws {
        let bytes = ExportWriter.write(
            try ListRows.sample(),
            format: .json,
            me: alice,
            myName: "alice",
            mine: false,
            exportedAt: 42
        )
        let document = try JSONDecoder().decode(PeerdExport.self, from: Data(bytes))
        #expect(document.peerd == "export" && document.version == 1 && document.exportedAt == 42)
        #expect(document.member == PeerdExport.Member(peer: alice, name: "alice"))
        #expect(document.movies == (try ListRows.sample()))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#""posterPath" : "/p603.jpg""#), "slashes unescaped, keys sorted, pretty")
    }

    /// Only a member can sign their own marks: bob's are said once, not imported.
    @Test func otherMembersMarksAreOneSkippedNoteForTheWholeFile() throws {
        let file = try ImportFile.read(try write(.json), name: "list.json")
        #expect(
            file.skipped == [
                SkippedRow(
                    line: 0,
                    reason: "the marks of bob on 2 movies are theirs: only a member can set their own marks, "
                        + "so they were not imported"
                )
            ]
        )
    }

    @Test func letterboxdGetsTheColumnsItImportsWithTheExportersDayAndRating() throws {
        let text = String(decoding: try write(.letterboxd), as: UTF8.self)
        #expect(
            text == #"""
                Title,Year,tmdbID,imdbID,WatchedDate,Rating10
                The Matrix,1999,603,,2023-01-31,10
                "Crouching Tiger, Hidden Dragon",2000,146,,,
                "The ""Burbs""",,12345,,,
                千と千尋の神隠し,2001,129,,,

                """#
        )
        let file = try ImportFile.read(Array(text.utf8), name: "letterboxd.csv")
        #expect(file.format == .letterboxdImport)
        #expect(file.rows.map(\.rating) == [10, nil, nil, nil])
        #expect(file.rows.map(\.want) == [false, true, true, true], "no day and no rating: wanted")
    }

    @Test(arguments: ExportFormat.allCases)
    func mineIsOnlyWhatTheMemberAddedOrMarked(format: ExportFormat) throws {
        let bytes = ExportWriter.write(try ListRows.sample(), format: format, me: alice, myName: "alice", mine: true)
        let file = try ImportFile.read(bytes, name: "mine")
        #expect(file.rows.map(\.tmdb) == [603, 146])
    }

    @Test func anEmptyListIsAHeaderOrAnEmptyArray() throws {
        let csv = ExportWriter.write([], format: .csv, me: alice, myName: "alice", mine: false)
        #expect(try ImportFile.read(csv, name: "empty.csv").rows.isEmpty)
        let json = ExportWriter.write([], format: .json, me: alice, myName: "alice", mine: false)
        #expect(try ImportFile.read(json, name: "empty.json").rows.isEmpty)
    }

    /// The file of rows an import could not resolve, read again once fixed (here: as it is).
    @Test func unresolvedRowsReadBackAsTheyWereWithTheirReasonIgnored() throws {
        let rows = try ImportFile.open(Fixtures.path("peerd-unresolved.csv")).rows
        #expect(rows.map(\.title) == ["A Title That TMDB Does Not Have", "Crouching Tiger, Hidden Dragon", "Amélie"])
        #expect(rows[1].seen && rows[1].seenOn == "2023-01-03" && rows[1].rating == 7)
        #expect(rows[2].list && rows[2].veto && rows[2].imdb == "tt0211915")
        let again = ExportWriter.unresolved(rows.map { ($0, "still not found") })
        let read = try ImportFile.read(again, name: "unresolved.csv")
        #expect(read.format == .peerdCSV)
        #expect(read.rows == rows)
        #expect(String(decoding: again, as: UTF8.self).hasSuffix(",still not found\n"))
    }

    private func write(_ format: ExportFormat) throws -> [UInt8] {
        ExportWriter.write(try ListRows.sample(), format: format, me: alice, myName: "alice", mine: false)
    }
}
