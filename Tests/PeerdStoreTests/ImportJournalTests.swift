import Foundation
import PeerdTestKit
import SystemPackage
import Testing

@testable import PeerdStore

@Suite("Import journal")
struct ImportJournalTests {
    @Test func linesComeBackAfterAReopen() async throws {
        try await withScratchDirectory("store") { root in
            let (journal, none) = try ImportJournal.open(in: root, id: "abc")
            #expect(none.isEmpty)
            try journal.append([Array("one".utf8), Array("two".utf8)])
            try journal.append([Array("three".utf8)])
            let (_, lines) = try ImportJournal.open(in: root, id: "abc")
            #expect(lines.map { String(decoding: $0, as: UTF8.self) } == ["one", "two", "three"])
            #expect(try mode(of: root.appending("imports")) == 0o700)
            #expect(try mode(of: root.appending("imports/abc.journal")) == 0o600)
        }
    }

    @Test func aTornLastLineIsCutOffAndAppendsGoOnAfterTheLastWholeOne() async throws {
        try await withScratchDirectory("store") { root in
            let (journal, _) = try ImportJournal.open(in: root, id: "abc")
            try journal.append([Array("whole".utf8)])
            let path = root.appending("imports/abc.journal")
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path.string))
            handle.seekToEndOfFile()
            handle.write(Data("{\"torn".utf8))
            try handle.close()
            let (reopened, lines) = try ImportJournal.open(in: root, id: "abc")
            #expect(lines == [Array("whole".utf8)])
            try reopened.append([Array("next".utf8)])
            #expect(try String(contentsOfFile: path.string, encoding: .utf8) == "whole\nnext\n")
        }
    }

    @Test func readingWithoutOpeningMakesNothing() async throws {
        try await withScratchDirectory("store") { root in
            #expect(try ImportJournal.lines(in: root, id: "abc").isEmpty)
            #expect(!FileManager.default.fileExists(atPath: root.appending("imports").string))
            let (journal, _) = try ImportJournal.open(in: root, id: "abc")
            try journal.append([Array("one".utf8)])
            #expect(try ImportJournal.lines(in: root, id: "abc") == [Array("one".utf8)])
        }
    }
}
