import Foundation
import PeerdImport
import PeerdTestKit
import PeerdWire
import Testing

/// Files that are too large, bombs, broken or not text: each ends in a clear error (or a bounded run)
/// and nothing is imported from it.
@Suite("Hostile files")
struct HostileFileTests {
    let header = "Date,Name,Year,Letterboxd URI\n"

    /// A sparse file: refused by its size, before a byte is read.
    @Test func aFileOf200MBIsRefusedBeforeItIsRead() throws {
        let scratch = try ScratchDirectory("import")
        defer { scratch.remove() }
        let path = scratch.path("watchlist.csv")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(header.utf8)))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 200_000_000)
        try handle.close()
        let error = #expect(throws: ImportError.self) { try ImportFile.open(path) }
        #expect(error == .fileTooLarge(path: path, bytes: 200_000_000, limit: 32 << 20))
        #expect(error?.description.contains("is 190.7 MiB; peerd imports files of at most 32.0 MiB") == true)
    }

    @Test func aZIPEntryThatSaysItIsLargerThanTheLimitIsNotInflated() throws {
        let error = #expect(throws: ImportError.self) { try ImportFile.read(try zerosZIP(), name: "bomb.zip") }
        #expect(error == .entryTooLarge(place: "bomb.zip: watched.csv", declared: 64 << 20, limit: 32 << 20))
        #expect(error?.description.contains("bomb.zip: watched.csv says it unpacks to 64.0 MiB") == true)
    }

    /// The same 64 MiB of zeros, with both of its headers saying 1,000 bytes: inflating stops past the limit.
    @Test func aZIPEntryWhoseHeaderLiesStopsInflatingPastTheLimit() throws {
        var zip = try zerosZIP()
        try patchUncompressedSize(of: &zip, to: 1_000)
        let error = #expect(throws: ImportError.self) { try ImportFile.read(zip, name: "liar.zip") }
        guard case .entryInflatesTooFar(let place, let inflated, let limit) = error else {
            Issue.record("expected entryInflatesTooFar, got \(String(describing: error))")
            return
        }
        #expect(place == "liar.zip: watched.csv" && limit == 32 << 20)
        #expect(inflated > limit && inflated <= limit + (1 << 20), "stopped within a chunk of the limit")
        #expect(error?.description.contains("unpacks to more than its header says") == true)
    }

    @Test func aZIPOfMoreEntriesThanTheLimitIsRefused() throws {
        let limits = ImportLimits(maxFileBytes: 1 << 20, maxEntryBytes: 1 << 20, maxEntries: 10, maxRows: 100)
        let zip = try Fixtures.zip((0...10).map { ("lists/list-\($0).csv", Array(header.utf8)) })
        let error = #expect(throws: ImportError.self) { try ImportFile.read(zip, name: "many.zip", limits: limits) }
        #expect(error == .tooManyEntries(place: "many.zip", limit: 10))
    }

    @Test func entriesThatUnpackToMoreThanTheArchiveLimitTogetherAreRefused() throws {
        let limits = ImportLimits(
            maxFileBytes: 1 << 20,
            maxEntryBytes: 1 << 20,
            maxEntries: 10,
            maxRows: 100,
            maxArchiveBytes: 64
        )
        let error = #expect(throws: ImportError.self) {
            try ImportFile.read(Fixtures.zip(folder: "letterboxd"), name: "export.zip", limits: limits)
        }
        #expect(error == .archiveTooLarge(place: "export.zip", limit: 64))
        #expect(error?.description.contains("unpacks to more than 0.0 MiB") == true)
    }

    @Test func aLineOfCommasIsRefusedWithoutHoldingAFieldPerComma() throws {
        let commas = [UInt8](repeating: UInt8(ascii: ","), count: 4 << 20)
        let error = #expect(throws: ImportError.self) { try ImportFile.read(commas, name: "commas.csv") }
        #expect(error?.description.hasPrefix("peerd can't tell what commas.csv is") == true)
        let header = Array("tmdbID,Listed".utf8) + commas + Array("\n603,yes\n".utf8)
        let wideHeader = #expect(throws: ImportError.self) { try ImportFile.read(header, name: "wide.csv") }
        #expect(wideHeader == .tooManyColumns(place: "wide.csv", line: 1, limit: 200))
        let wide = "tmdbID,Listed\n603,yes,\(String(repeating: ",", count: 300))\n"
        let row = #expect(throws: ImportError.self) { try ImportFile.read(Array(wide.utf8), name: "wide.csv") }
        #expect(row == .tooManyColumns(place: "wide.csv", line: 2, limit: 200))
        #expect(row?.description.contains("more than 200 fields") == true)
    }

    @Test func aZIPOfNothingPeerdKnowsNamesTheFormatsItKnows() throws {
        let zip = try Fixtures.zip([("photos/cat.jpg", [0xFF, 0xD8, 0xFF]), ("notes.txt", Array("hi".utf8))])
        let error = #expect(throws: ImportError.self) { try ImportFile.read(zip, name: "photos.zip") }
        #expect(error?.description.hasPrefix("peerd can't tell what photos.zip is (a ZIP of 2 files") == true)
        for format in ImportFormat.allCases { #expect(error?.description.contains(format.description) == true) }
    }

    @Test(
        arguments: [
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D], "it is not a ZIP, and not UTF-8 text"),
            (Array("Hello,\nthis is a letter, not a list.\n".utf8), "its first line is \"Hello,\""),
            ([], "it is empty"), (Array(" \n\n".utf8), "it is empty"),
            (Array(#"{"name": "not an export"}"#.utf8), "a JSON object, but not a peerd export"),
        ] as [([UInt8], String)]
    )
    func aFileOfAnotherKindIsAnUnknownFormatThatListsEveryFormat(bytes: [UInt8], seen: String) throws {
        let error = #expect(throws: ImportError.self) { try ImportFile.read(bytes, name: "file") }
        #expect(error == .unknownFormat(place: "file", seen: seen))
        #expect(error?.description.contains("It imports: Letterboxd export (ZIP); Letterboxd watchlist.csv;") == true)
    }

    @Test func aQuoteNeverClosedNamesTheFileAndTheLineItOpensOn() throws {
        let csv = header + "2023-01-01,\"Heat,1995,https://boxd.it/1\n2023-01-02,Alien,1979,https://boxd.it/2\n"
        let error = #expect(throws: ImportError.self) { try ImportFile.read(Array(csv.utf8), name: "watchlist.csv") }
        #expect(error == .brokenQuoting(place: "watchlist.csv", line: 2, fields: 2, expected: 4))
        #expect(
            error?.description.hasPrefix("watchlist.csv, line 2: the row has 2 fields where the header has 4") == true
        )
    }

    @Test func aQuoteOpenedInTheLastFieldOfTheLastRowIsFoundToo() throws {
        let csv = header + "2023-01-01,Heat,1995,https://boxd.it/1\n2023-01-02,Alien,1979,\"https://boxd.it/2\n"
        let error = #expect(throws: ImportError.self) { try ImportFile.read(Array(csv.utf8), name: "watched.csv") }
        #expect(error == .unclosedQuote(place: "watched.csv", line: 3))
    }

    @Test func aFileInLatin1NamesTheLineOfItsFirstByteThatIsNotUTF8() throws {
        let bytes = Array((header + "2023-01-01,Heat,1995,u\n2023-01-02,Am").utf8) + [0xE9] + Array("lie,2001,u\n".utf8)
        let error = #expect(throws: ImportError.self) { try ImportFile.read(bytes, name: "watched.csv") }
        #expect(error == .notUTF8(place: "watched.csv", line: 3, byte: 0xE9))
        #expect(error?.description.contains("line 3 has a byte (0xE9) that is not UTF-8") == true)
    }

    @Test func aCSVOf100000RowsIsRefusedWithItsCount() throws {
        var csv = header
        for row in 0..<100_000 { csv += "2023-01-01,Film \(row),2000,https://boxd.it/\(row)\n" }
        let error = #expect(throws: ImportError.self) { try ImportFile.read(Array(csv.utf8), name: "watched.csv") }
        #expect(error == .tooManyRows(place: "watched.csv", rows: 100_000, limit: 20_000))
        #expect(
            error?.description.hasPrefix(
                "watched.csv has 100,000 rows; peerd imports at most 20,000 from one file: split it"
            ) == true
        )
    }

    @Test func theRowLimitCountsEveryPartOfAZIP() throws {
        let limits = ImportLimits(maxFileBytes: 1 << 20, maxEntryBytes: 1 << 20, maxEntries: 10, maxRows: 16)
        let error = #expect(throws: ImportError.self) {
            try ImportFile.read(Fixtures.zip(folder: "letterboxd"), name: "export.zip", limits: limits)
        }
        #expect(error == .tooManyRows(place: "export.zip", rows: 18, limit: 16))
    }

    @Test func aTitleOver300CharactersIsSkippedAndAYearOutOfRangeIsNoYear() throws {
        let long = String(repeating: "é", count: 301)
        let fits = String(repeating: "字", count: 300)
        let csv = header + "2023-01-01,\(long),2000,u\n2023-01-01,\(fits),1869,u\n2023-01-01,Tomorrow,10000,u\n"
        let file = try ImportFile.read(Array(csv.utf8), name: "watched.csv")
        #expect(file.skipped.map(\.reason) == ["the title is longer than 300 characters"])
        #expect(file.rows.map(\.title) == [fits, "Tomorrow"])
        #expect(file.rows.map(\.year) == [nil, nil])
    }

    @Test func anExportOfALaterPeerdIsRefused() throws {
        let json = #"{"peerd": "export", "version": 2, "movies": "changed"}"#
        let error = #expect(throws: ImportError.self) { try ImportFile.read(Array(json.utf8), name: "new.json") }
        #expect(error == .newerExport(place: "new.json", version: 2))
    }

    @Test func aFolderOrAMissingFileCannotBeRead() throws {
        let folder = #expect(throws: ImportError.self) { try ImportFile.open(Fixtures.path("letterboxd")) }
        #expect(folder == .cannotRead(path: Fixtures.path("letterboxd"), reason: "it is a folder"))
        let missing = #expect(throws: ImportError.self) { try ImportFile.open("/nonexistent/watchlist.csv") }
        #expect(missing == .cannotRead(path: "/nonexistent/watchlist.csv", reason: "No such file or directory"))
    }

    @Test func theFingerprintIsTheSHA256OfTheFilesBytes() throws {
        let file = try ImportFile.open(Fixtures.path("tmdb-export.csv"))
        // sha256sum Tests/PeerdImportTests/Fixtures/tmdb-export.csv
        #expect(file.fingerprint == "d3c2dda2feadce7d99b364ff14690fa93a643584eb641e06cdd79e742ce87357")
        var bytes = try Fixtures.bytes("tmdb-export.csv")
        bytes.append(UInt8(ascii: "\n"))
        #expect(try ImportFile.read(bytes, name: "tmdb-export.csv").fingerprint != file.fingerprint)
    }

    /// 64 MiB of zeros as `watched.csv`, deflated to about 64 KiB.
    private func zerosZIP() throws -> [UInt8] {
        var writer = ZipWriter()
        writer.add("watched.csv", [UInt8](repeating: 0, count: 64 << 20))
        let bytes = writer.archive()
        #expect(bytes.count < 1 << 20)
        return bytes
    }

    /// Rewrites the uncompressed size in the one entry's local header (offset 22) and central
    /// directory header (offset 24), as a hostile ZIP would.
    private func patchUncompressedSize(of zip: inout [UInt8], to size: UInt32) throws {
        #expect(zip.starts(with: [0x50, 0x4B, 0x03, 0x04]))
        #expect(zip[6] & 0x08 == 0, "no data descriptor: the headers hold the sizes")
        let central = try #require(
            (0..<zip.count - 4).last { zip[$0..<$0 + 4].elementsEqual([0x50, 0x4B, 0x01, 0x02]) }
        )
        for offset in [22, central + 24] {
            for byte in 0..<4 { zip[offset + byte] = UInt8(truncatingIfNeeded: size >> (8 * byte)) }
        }
    }
}
