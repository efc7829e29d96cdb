import Foundation
import PeerdImport
import Testing

/// Replays every input in Fuzz/regressions/import (what `fuzz-import` once broke, and hostile files made by
/// hand) through `ImportFile.read`: a trap fails the whole run, so each input that gets here has been read,
/// or refused with an `ImportError` that names the file.
@Suite("Import fuzz regression inputs in Fuzz/regressions/import")
struct ImportFuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // PeerdImportTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("Fuzz/regressions/import")

    static let inputs: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { !$0.hasPrefix(".") }.sorted()

    @Test func thereAreRegressionInputs() {
        #expect(!Self.inputs.isEmpty, "no inputs under \(Self.directory.path)")
    }

    @Test("a regression input is read, or refused with a message naming the file", arguments: inputs)
    func readOrRefused(_ input: String) throws {
        let bytes = Array(try Data(contentsOf: Self.directory.appendingPathComponent(input)))
        do {
            let file = try ImportFile.read(bytes, name: "watched.csv")
            #expect(file.rows.count <= ImportLimits.standard.maxRows)
        } catch {
            #expect(error.description.contains("watched.csv"), "\(error)")
        }
    }
}
