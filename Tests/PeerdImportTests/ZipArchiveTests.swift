import PropertyBased
import Testing

@testable import PeerdImport

/// peerd's own ZIP reader (ZipArchive): stored, deflated and zip64 entries, only files listed, and a damaged
/// archive or entry named as such.
@Suite("ZIP reader")
struct ZipArchiveTests {
    let limits = ImportLimits.standard

    @Test func storedAndDeflatedEntriesReadBackAsWritten() async {
        let contents = Gen.uint8(in: 0...3).array(of: 0...5000)
        await propertyCheck(input: contents, contents) { first, second in
            var writer = ZipWriter()
            writer.add("stored.csv", first, method: .stored)
            writer.add("deflated.csv", second, method: .deflated)
            let zip = try #require(try? ZipArchive(writer.archive(), place: "x.zip", limits: limits))
            #expect(zip.paths == ["stored.csv", "deflated.csv"])
            #expect(try zip.read("stored.csv") == first)
            #expect(try zip.read("deflated.csv") == second)
        }
    }

    @Test func zip64SizesAndOffsetsAreRead() throws {
        var writer = ZipWriter()
        writer.add("a.csv", Array("a,b\n".utf8))
        writer.add("watched.csv", Array("Date,Name\n".utf8), zip64: true)
        let zip = try ZipArchive(writer.archive(), place: "x.zip", limits: limits)
        #expect(try zip.read("watched.csv") == Array("Date,Name\n".utf8))
    }

    /// Python's zipfile writing to a pipe: zip64 extra fields in the local header, sizes in a data descriptor.
    @Test func aZIPStreamedWithADataDescriptorAndZip64ExtrasReads() throws {
        let streamed = try ImportFile.read(Fixtures.bytes("zip64-streamed.zip"), name: "streamed.zip")
        let plain = try ImportFile.open(Fixtures.path("letterboxd/watchlist.csv"))
        #expect(streamed.format == .letterboxdZIP)
        #expect(streamed.rows.map(\.title) == plain.rows.map(\.title) && !plain.rows.isEmpty)
    }

    @Test func onlyFilesAreListedTheFirstOfTwoWithOnePath() throws {
        var writer = ZipWriter()
        writer.add("export/", [], method: .stored, unixMode: 0o040755)
        writer.add("export/watched.csv", Array("one".utf8))
        writer.add("export/link.csv", Array("watched.csv".utf8), method: .stored, unixMode: 0o120777)
        writer.add("export/watched.csv", Array("two".utf8))
        let zip = try ZipArchive(writer.archive(), place: "x.zip", limits: limits)
        #expect(zip.paths == ["export/watched.csv"])
        #expect(try zip.read("export/watched.csv") == Array("one".utf8))
    }

    @Test func anArchiveCutShortIsDamaged() throws {
        let bytes = try Fixtures.zip(folder: "letterboxd")
        let error = #expect(throws: ImportError.self) {
            try ZipArchive(Array(bytes.prefix(bytes.count / 2)), place: "cut.zip", limits: limits)
        }
        #expect(error == .damagedZIP(place: "cut.zip", reason: "it has no end of central directory record"))
        #expect(error?.description.hasPrefix("cut.zip is a ZIP that can't be read (it has no end of central") == true)
    }

    @Test func anEntryWhoseBytesChangedFailsItsCRC() throws {
        var writer = ZipWriter()
        writer.add("watched.csv", Array("Date,Name,Year,Letterboxd URI\n".utf8), method: .stored)
        var bytes = writer.archive()
        bytes[30 + "watched.csv".utf8.count] ^= 0x20
        let zip = try ZipArchive(bytes, place: "x.zip", limits: limits)
        let error = #expect(throws: ImportError.self) { try zip.read("watched.csv") }
        #expect(error == .damagedZIP(place: "x.zip: watched.csv", reason: "its CRC-32 does not match its content"))
    }

    @Test func deflatedDataCutShortOrCorruptIsDamaged() throws {
        var writer = ZipWriter()
        let content = (0..<2000).flatMap { Array("2023-01-01,Film \($0),2000,u\n".utf8) }
        writer.add("watched.csv", content)
        var bytes = writer.archive()
        let data = 30 + "watched.csv".utf8.count
        bytes[data + 10] ^= 0xFF
        bytes[data + 11] ^= 0xFF
        let zip = try ZipArchive(bytes, place: "x.zip", limits: limits)
        let error = #expect(throws: ImportError.self) { try zip.read("watched.csv") }
        guard case .damagedZIP(let place, _) = error else {
            Issue.record("expected damagedZIP, got \(String(describing: error))")
            return
        }
        #expect(place == "x.zip: watched.csv")
    }

    @Test func anEntryOfAnotherMethodOrEncryptedIsDamaged() throws {
        var writer = ZipWriter()
        writer.add("watched.csv", Array("a".utf8), method: .stored)
        var other = writer.archive()
        let central = try #require((0..<other.count - 4).last { other[$0..<$0 + 4].elementsEqual([0x50, 0x4B, 1, 2]) })
        other[central + 10] = 12  // bzip2
        let error = #expect(throws: ImportError.self) {
            try ZipArchive(other, place: "x.zip", limits: limits).read("watched.csv")
        }
        #expect(error?.description.contains("method 12") == true)
        var encrypted = writer.archive()
        encrypted[central + 8] |= 1
        let encryptedError = #expect(throws: ImportError.self) {
            try ZipArchive(encrypted, place: "x.zip", limits: limits).read("watched.csv")
        }
        #expect(encryptedError == .damagedZIP(place: "x.zip: watched.csv", reason: "it is encrypted"))
    }

    @Test func aCentralDirectoryPointingOutsideTheFileIsDamaged() throws {
        var writer = ZipWriter()
        writer.add("watched.csv", Array("a".utf8))
        var bytes = writer.archive()
        bytes[bytes.count - 6] = 0xFF  // the directory's offset, past the end
        bytes[bytes.count - 5] = 0xFF
        let error = #expect(throws: ImportError.self) { try ZipArchive(bytes, place: "x.zip", limits: limits) }
        #expect(error == .damagedZIP(place: "x.zip", reason: "its central directory lies outside the file"))
    }
}
