import Foundation
import PeerdTestKit
import SystemPackage
import Testing

@testable import PeerdStore

@Suite("State format")
struct StateFormatTests {
    @Test func aFolderWithoutTheFileIsFormatOneAndGetsTheFile() async throws {
        try await withScratchDirectory("store") { root in
            try StateFormat.check(root)
            #expect(try AtomicFile.read(root.appending("format")) == Array("peerd-state 1\n".utf8))
            try StateFormat.check(root)
        }
    }

    @Test(arguments: ["peerd-state 2\n", "peerd-state 10\n"])
    func aNewerFormatIsRefused(_ text: String) async throws {
        try await withScratchDirectory("store") { root in
            try AtomicFile.write(Array(text.utf8), to: root.appending("format"))
            let found = Int(text.dropFirst("peerd-state ".count).dropLast())!
            #expect(throws: StoreError.newerFormat(root, found: found, reads: 1)) { try StateFormat.check(root) }
        }
    }

    @Test(arguments: ["peerd-state 0\n", "peerd-state 1", "peerd-state -1\n", "peerd 1\n", "", "peerd-state 1\n\n"])
    func aFileThatSaysSomethingElseIsDamagedAndKept(_ text: String) async throws {
        try await withScratchDirectory("store") { root in
            let path = root.appending("format")
            try AtomicFile.write(Array(text.utf8), to: path)
            #expect(throws: StoreError.corruptFile(path, reason: "it should say \"peerd-state N\" with N from 1")) {
                try StateFormat.check(root)
            }
            #expect(try AtomicFile.read(path) == Array(text.utf8))
        }
    }
}
