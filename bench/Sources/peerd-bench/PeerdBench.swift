import Foundation

/// `make bench`: measures peerd on this machine, prints a table and writes bench/results.json.
/// `--only WORDS` runs the scenarios whose name contains them ("catch-up", "movie details", "mesh",
/// "unseen list").
/// `--mesh-rates 40,0` are the paces the meshes run at (adds a second; 0: each add as soon as the
/// one before is acknowledged, with the smallest and largest mesh only) and
/// `--mesh-sizes 10,20,30` chooses its meshes; `--unpaced-rounds N` how often the unpaced pair runs
/// (3: the median ratio is the row); `--idle-seconds S` is the window wakeups at rest are counted
/// over (60); `--quick` leaves the meshes out and counts wakeups over 10 s.
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
            case "--mesh-rates":
                let rates = arguments.popFirst()?.split(separator: ",").map { Double($0) } ?? []
                guard !rates.isEmpty, rates.allSatisfy({ ($0 ?? -1) >= 0 }) else { usage() }
                scenarios.meshRates = rates.compactMap { $0 }
            case "--mesh-sizes":
                let sizes = arguments.popFirst()?.split(separator: ",").map { Int($0) } ?? []
                guard !sizes.isEmpty, sizes.allSatisfy({ ($0 ?? 0) >= 2 }) else { usage() }
                scenarios.meshSizes = sizes.compactMap { $0 }
            case "--unpaced-rounds":
                guard let rounds = arguments.popFirst().flatMap({ Int($0) }), rounds > 0 else { usage() }
                scenarios.unpacedRounds = rounds
            case "--idle-seconds":
                guard let seconds = arguments.popFirst().flatMap(Double.init), seconds > 0 else { usage() }
                scenarios.idleSeconds = seconds
            case "--quick":
                scenarios.adds = 100
                scenarios.catchUpMovies = 10_000
                scenarios.cliRuns = 20
                scenarios.coldStarts = 2
                scenarios.detailRuns = 10
                scenarios.tokenlessRuns = 2
                scenarios.searchRuns = 5
                scenarios.flakyRuns = 5
                scenarios.meshSizes = []
                scenarios.idleSeconds = 10
            default: usage()
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
            ("catalog through the group", { try scenarios.groupCatalog() }),
            ("mesh replication CPU", { try scenarios.mesh() }),
            ("idle wakeups", { try scenarios.idleWakeups() }),
            ("idle memory", { try scenarios.idleMemory() }),
            ("members' marks: unseen list", { try scenarios.unseenList(binDirectory: binDirectory) }),
            ("members' marks: cold start", { try scenarios.coldStartWithMarks() }),
            ("members' marks: pick memory", { try scenarios.pickMemory() }),
        ] as [(String, () throws -> [Measurement])] where only.map(name.contains) ?? true {
            FileHandle.standardError.write(Data("running: \(name)…\n".utf8))
            results += try run()
        }
        printTable(results)
        // Part of a run (--only) writes the results only when asked to, and then only its own rows.
        guard let resultsPath = resultsPath ?? (only == nil ? "bench/results.json" : nil) else { return }
        if only != nil { results = try merging(results, into: resultsPath) }
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

    static func usage() -> Never {
        FileHandle.standardError.write(
            Data(
                ("usage: peerd-bench [--bin-dir DIR] [--results FILE] [--quick] [--only SCENARIO] [--mesh-rates R,R,…]"
                    + " [--mesh-sizes N,N,…] [--unpaced-rounds N] [--idle-seconds S]\n").utf8
            )
        )
        exit(64)
    }

    /// `file`'s rows, each one measured again replaced where it stands, then the new ones; rows are
    /// matched by `measure`, as the Python benchmarks match theirs when they merge.
    static func merging(_ results: [Measurement], into file: String) throws -> [Measurement] {
        guard let data = FileManager.default.contents(atPath: file) else { return results }
        let fresh = Dictionary(results.map { ($0.measure, $0) }, uniquingKeysWith: { $1 })
        let kept = try JSONDecoder().decode(Report.self, from: data).results
        let measured = Set(kept.map(\.measure))
        return kept.map { fresh[$0.measure] ?? $0 } + results.filter { !measured.contains($0.measure) }
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
