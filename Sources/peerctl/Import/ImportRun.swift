import ArgumentParser
import PeerdImport
import PeerdWire

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One `peerctl import`: what came back for each row, the progress shown, and the summary.
struct ImportRun {
    /// Rows a request carries at most; ``nextBatch(after:took:)`` says how many the next one does.
    static let largestBatch = 20
    /// Rows the first request carries: as many as peerd looks up at once, so the progress starts
    /// moving as soon as the first lookups are back.
    static let firstBatch = 4

    /// Rows the next request carries after one of `rows` that took `took`: about a second's worth
    /// at that pace, for the progress to move every second or so, growing at most twofold.
    static func nextBatch(after rows: Int, took: Duration) -> Int {
        let seconds = took / .seconds(1)
        let second = seconds > 0 ? Int(Double(rows) / seconds) : largestBatch
        return min(max(second, firstBatch), 2 * rows, largestBatch)
    }

    let source: ImportFile
    let file: String
    let dryRun: Bool
    let json: Bool
    var progress: ImportProgress
    private(set) var counts: [ImportResult.Outcome: Int] = [:]
    private(set) var unresolved: [(row: ImportRow, reason: String)] = []
    private(set) var failures: [String] = []
    /// The first few refusals by the list's ceiling, for the summary.
    private(set) var refusals: [String] = []

    init(source: ImportFile, file: String, dryRun: Bool, json: Bool) {
        self.source = source
        self.file = file
        self.dryRun = dryRun
        self.json = json
        progress = ImportProgress(total: source.rows.count, json: json)
    }

    func start() {
        if json {
            let rows = source.rows.count
            Output.jsonLine(
                Start(file: file, format: "\(source.format)", rows: rows, skipped: source.skipped.count, dryRun: dryRun)
            )
            return
        }
        let skipped = source.skipped.isEmpty ? "" : ", \(source.skipped.count) skipped (\(skippedReasons))"
        Output.note(
            "\(dryRun ? "Checking" : "Importing") \(file): \(source.format), \(source.rows.count) rows\(skipped)"
        )
    }

    /// The skipped rows' reasons, each with its count: "2 not a movie (tvSeries)".
    private var skippedReasons: String {
        var seen: [(String, Int)] = []
        for row in source.skipped {
            if let index = seen.firstIndex(where: { $0.0 == row.reason }) {
                seen[index].1 += 1
            } else {
                seen.append((row.reason, 1))
            }
        }
        return seen.prefix(3).map { "\($1) \($0)" }.joined(separator: ", ")
    }

    mutating func take(_ results: [ImportResult], for rows: [ImportRow]) {
        for (result, row) in zip(results, rows) {
            counts[result.outcome, default: 0] += 1
            if result.outcome == .unresolved { unresolved.append((row, result.reason ?? "unresolved")) }
            if result.outcome == .failed, failures.count < 3 { failures.append(result.reason ?? "failed") }
            if result.outcome == .refused, refusals.count < 3 { refusals.append(result.reason ?? "refused") }
        }
        progress.advance(by: results.count)
    }

    private func count(_ outcome: ImportResult.Outcome) -> Int { counts[outcome, default: 0] }

    /// The summary; the unresolved rows' file; exit 1 when rows failed (running again retries them).
    func finish() throws {
        progress.finish()
        let unresolvedFile = try writeUnresolved()
        let seconds = Int((progress.elapsed / .seconds(1)).rounded())
        if json {
            Output.jsonLine(summary(unresolvedFile: unresolvedFile, seconds: seconds))
        } else {
            print("\(dryRun ? "checked" : "imported") \(file) in \(seconds) s: \(tally)")
            if !dryRun, count(.marked) + count(.added) > 0 {
                // What the import made is the newest history: an age that covers the import finds it.
                print(
                    "what it marked: `peerctl history --since \(seconds / 60 + 1)m`; "
                        + "a marked movie not on the list too: `peerctl show ID`"
                )
            }
            if let unresolvedFile {
                print(
                    "the unresolved rows are in \(unresolvedFile), with why: fill in tmdbID (or fix Title and Year), "
                        + "then `peerctl import \(unresolvedFile)`"
                )
            }
            if count(.refused) > 0 {
                print("\(count(.refused)) refused by the list's ceiling (\(refusals.joined(separator: "; ")))")
            }
            if count(.failed) > 0 {
                let why = failures.joined(separator: "; ")
                print("\(count(.failed)) rows failed (\(why)): run the same command again to retry them")
            }
        }
        if count(.failed) > 0 { throw ExitCode(1) }
    }

    /// "2 added, 6 marked, 3 already there, 2 unresolved, 1 skipped".
    private var tally: String {
        var parts = [
            "\(count(.added)) \(dryRun ? "would add" : "added")",
            "\(count(.marked)) \(dryRun ? "would mark" : "marked")",
            "\(count(.already)) already there", "\(count(.unresolved)) unresolved",
        ]
        if count(.refused) > 0 { parts.append("\(count(.refused)) refused by the list's ceiling") }
        if !source.skipped.isEmpty { parts.append("\(source.skipped.count) skipped") }
        if count(.failed) > 0 { parts.append("\(count(.failed)) failed") }
        return parts.joined(separator: ", ") + (dryRun ? "; nothing was written" : "")
    }

    private func summary(unresolvedFile: String?, seconds: Int) -> Summary {
        Summary(
            file: file,
            format: "\(source.format)",
            rows: source.rows.count,
            added: count(.added),
            marked: count(.marked),
            already: count(.already),
            unresolved: count(.unresolved),
            failed: count(.failed),
            refused: count(.refused),
            skipped: source.skipped.count,
            dryRun: dryRun,
            unresolvedFile: unresolvedFile,
            seconds: seconds
        )
    }

    /// NAME.unresolved.csv in the current folder, when rows were unresolved (not on a dry run).
    private func writeUnresolved() throws -> String? {
        guard !unresolved.isEmpty, !dryRun else { return nil }
        let base = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        let name = "\(base).unresolved.csv"
        do {
            try Data(ExportWriter.unresolved(unresolved)).write(to: URL(fileURLWithPath: name))
        } catch {
            Output.error("can't write \(name): \(error)")
            throw ExitCode(73)
        }
        return name
    }

    struct Start: Encodable {
        var event = "start"
        var file: String
        var format: String
        var rows: Int
        var skipped: Int
        var dryRun: Bool
    }

    struct Summary: Encodable {
        var event = "summary"
        var file: String
        var format: String
        var rows, added, marked, already, unresolved, failed, refused, skipped: Int
        var dryRun: Bool
        var unresolvedFile: String?
        var seconds: Int
    }
}
