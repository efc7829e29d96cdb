import Foundation

/// `make bench`: measures peerd on this machine, prints a table and writes bench/results.json.
/// `--only WORDS` runs the scenarios whose name contains them ("catch-up", "movie details").
@main
struct PeerdBench {
    static func main() throws {
        var arguments = CommandLine.arguments.dropFirst()
        var binDirectory = ".build/release"
        var resultsPath: String?
        var scenarios = Scenarios()
        var only: String?
        while let flag = arguments.popFirst() {
            switch flag {
            case "--bin-dir": binDirectory = arguments.popFirst() ?? binDirectory
            case "--results": resultsPath = arguments.popFirst()
            case "--only": only = arguments.popFirst()
            case "--quick":
                scenarios.adds = 100
                scenarios.catchUpMovies = 10_000
                scenarios.cliRuns = 20
                scenarios.coldStarts = 2
                scenarios.detailRuns = 10
                scenarios.tokenlessRuns = 2
            default:
                FileHandle.standardError.write(
                    Data("usage: peerd-bench [--bin-dir DIR] [--results FILE] [--quick] [--only SCENARIO]\n".utf8)
                )
                exit(64)
            }
        }
        binDirectory = URL(fileURLWithPath: binDirectory).standardizedFileURL.path
        setenv("PEERD_BIN_DIR", binDirectory, 1)

        var results: [Measurement] = []
        for (name, run) in [
            ("add → visible", { try scenarios.addToVisible() }),
            ("catch-up, memory, cold start", { try scenarios.catchUpAndMemory() }),
            ("peerctl add", { try scenarios.peerctlAdd(binDirectory: binDirectory) }),
            ("movie details", { try scenarios.movieDetails(binDirectory: binDirectory) }),
        ] as [(String, () throws -> [Measurement])] where only.map(name.contains) ?? true {
            FileHandle.standardError.write(Data("running: \(name)…\n".utf8))
            results += try run()
        }
        printTable(results)
        // Part of a run (--only) replaces the results only when asked to.
        guard let resultsPath = resultsPath ?? (only == nil ? "bench/results.json" : nil) else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let report = Report(machine: machine(), results: results)
        try encoder.encode(report).write(to: URL(fileURLWithPath: resultsPath))
        print("wrote \(resultsPath)")
    }

    struct Report: Codable {
        var machine: String
        var results: [Measurement]
    }

    static func printTable(_ results: [Measurement]) {
        let header = ["measure", "result", "target", "met", "detail"]
        let rows = results.map { m in
            [
                m.measure, String(format: m.value >= 100 ? "%.0f %@" : "%.2f %@", m.value, m.unit), m.target,
                m.met ? "yes" : "NO", m.detail,
            ]
        }
        let widths = header.indices.map { i in ([header] + rows).map { $0[i].count }.max()! }
        for row in [header] + rows {
            print(
                row.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }
                    .joined(separator: "  ")
            )
        }
    }

    static func machine() -> String {
        let cpus = ProcessInfo.processInfo.activeProcessorCount
        let memory = ProcessInfo.processInfo.physicalMemory / 1_073_741_824
        return "\(cpus) cores, \(memory) GiB, \(ProcessInfo.processInfo.operatingSystemVersionString)"
    }
}
