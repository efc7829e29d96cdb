import PropertyBased
import Testing

@testable import PeerdImport

/// peerd's own RFC 4180 reader and writer (CSVReader, CSVWriter): what exports hold, read back exactly.
@Suite("CSV reader and writer")
struct CSVReaderTests {
    /// Fields of the characters CSV treats specially, and text that isn't ASCII.
    static let fields = Gen<Character?>.element(of: Array("ab ,\"\r\n\té字\u{FEFF}")).map { $0 ?? "a" }
        .string(of: 0...6)
    static let records = fields.array(of: 1...4).array(of: 0...6)

    private func read(_ text: String) -> [CSVReader.Record] {
        var reader = CSVReader(text)
        return Array(AnyIterator { reader.next() })
    }

    @Test func whatTheWriterWritesReadsBackAsTheSameRecords() async {
        await propertyCheck(input: Self.records) { records in
            let text = String(decoding: CSVWriter.write(records), as: UTF8.self)
            #expect(read(text).map(\.fields) == records)
        }
    }

    @Test func recordsEndAtLFCRLFOrCRAndALastLineBreakStartsNone() {
        let records = read("a,b\r\nc,d\re,f\ng,h\n")
        #expect(records.map(\.fields) == [["a", "b"], ["c", "d"], ["e", "f"], ["g", "h"]])
        #expect(records.map(\.line) == [1, 2, 3, 4])
        #expect(read("a,b").map(\.fields) == [["a", "b"]])
        #expect(read("").isEmpty)
    }

    @Test func aQuotedFieldHoldsCommasDoubledQuotesAndLineBreaksAndTheLinesAreCounted() {
        let records = read("title,year\n\"Heat, \"\"the\"\"\r\nfilm\",1995\nAlien,1979\n")
        #expect(records.map(\.fields) == [["title", "year"], ["Heat, \"the\"\r\nfilm", "1995"], ["Alien", "1979"]])
        #expect(records.map(\.line) == [1, 2, 4])
    }

    @Test func aByteOrderMarkAtTheStartIsSkipped() {
        #expect(read("\u{FEFF}Title,Year\nHeat,1995\n").map(\.fields) == [["Title", "Year"], ["Heat", "1995"]])
    }

    @Test func aQuoteInsideAnUnquotedFieldIsAnOrdinaryCharacterAndTextAfterAClosingQuoteIsKept() {
        #expect(read("Heat \"95\",\"ab\"c,d\n").map(\.fields) == [["Heat \"95\"", "abc", "d"]])
    }

    @Test func aBlankLineIsOneEmptyField() {
        #expect(read("a\n\nb\n").map(\.fields) == [["a"], [""], ["b"]])
    }

    @Test func aQuoteNeverClosedTakesTheRestOfTheTextAndSaysSo() {
        let records = read("a,b\n1,\"two\n3,4\n")
        #expect(records.map(\.fields) == [["a", "b"], ["1", "two\n3,4\n"]])
        #expect(records.map(\.unclosedQuote) == [false, true])
        #expect(records.last?.line == 2)
    }

    @Test func aMalformedFileIsAnErrorThatNamesTheLine() {
        let header = "Date,Name,Year,Letterboxd URI\n"
        let shortRow = header + "2023-01-01,Heat,1995,u\n2023-01-02,Alien\n"
        let shortError = #expect(throws: ImportError.self) {
            try CSVTable.read(shortRow, place: "watched.csv", budget: 10)
        }
        #expect(shortError == .brokenQuoting(place: "watched.csv", line: 3, fields: 2, expected: 4))
        let unclosed = header + "2023-01-01,Heat,1995,\"u\r\n"
        let unclosedError = #expect(throws: ImportError.self) {
            try CSVTable.read(unclosed, place: "watched.csv", budget: 10)
        }
        #expect(unclosedError == .unclosedQuote(place: "watched.csv", line: 2))
    }

    @Test func aLastFieldQuotedAroundALineBreakIsNotAnUnclosedQuote() throws {
        let table = try CSVTable.read("a,b\n1,\"two\n\"\n", place: "file.csv", budget: 10)
        #expect(table.records.map(\.fields) == [["1", "two\n"]])
    }
}
