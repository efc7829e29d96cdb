import Foundation
import PeerdTestKit
import PeerdTestSupport

/// How often an idle daemon wakes: voluntary context switches of all its threads (each one a thread
/// that blocked and was woken again) a second, over `idleSeconds`. One daemon with no peers and a
/// full mesh of six, each in session with five, measured side by side in the same window, all as
/// the systemd unit runs them: the page on, `NOTIFY_SOCKET` set and `WatchdogSec=30s`.
extension Scenarios {
    /// The unit's `WatchdogSec=` (systemd/peerd.service).
    static let unitWatchdog = Duration.seconds(30)

    func idleWakeups() throws -> [Measurement] {
        let scratch = try ScratchDirectory("bench-wakeups")
        let alone = try TestDaemon("alone", in: scratch, logLevel: "warning", watchdog: Self.unitWatchdog)
        let mesh = try Mesh(size: 6, arguments: [], watchdog: Self.unitWatchdog)
        try waitUntil(timeout: .seconds(60), every: .milliseconds(100)) { try mesh.isFullyConnected() }
        // Past the start: hellos, members, the first keepalives.
        Thread.sleep(forTimeInterval: 5)
        let daemons = [alone] + mesh.daemons
        var counts = try daemons.map { try ThreadSwitches(of: $0) }
        let end = ContinuousClock.now + .seconds(idleSeconds)
        while ContinuousClock.now < end {
            Thread.sleep(forTimeInterval: min(ThreadSwitches.samplingInterval, (end - .now) / .seconds(1)))
            for index in daemons.indices { try counts[index].sample(daemons[index]) }
        }
        let rates = counts.map { Double($0.total) / idleSeconds }
        // Which threads woke, for finding what wakes them.
        for (index, daemon) in daemons.enumerated() {
            let shown = counts[index].byThread.map {
                String(format: "%@ %.2f", $0.name, Double($0.count) / idleSeconds)
            }
            let line = String(format: "  %@: %.2f/s (%@)\n", daemon.name, rates[index], shown.joined(separator: ", "))
            FileHandle.standardError.write(Data(line.utf8))
        }
        let meshRates = rates.dropFirst()
        let meshMean = meshRates.reduce(0, +) / Double(meshRates.count)
        let conditions = "page on, NOTIFY_SOCKET and WatchdogSec=30s as under the systemd unit"
        // libdispatch's manager thread runs its worker pool's monitor, a timer that fires every
        // second for the life of any process in which a Swift task ever ran on that pool
        // (swift-corelibs-libdispatch, src/event/workqueue.c: no setting turns it off). peerd runs
        // its tasks on NIO's event loops instead (Sources/peerd/PeerdMain.swift), so it should be 0.
        let monitor = counts[0].byThread.first { $0.name.hasSuffix("qos.overcommit") }.map {
            Double($0.count) / idleSeconds
        }
        return [
            Measurement(
                measure: "wakeups at rest, no peers",
                value: rates[0],
                unit: "/s",
                target: "≤ 1 /s",
                met: rates[0] <= 1,
                detail: String(
                    format: "voluntary context switches of all threads over %.0f s; %@; of them %.2f/s "
                        + "libdispatch's manager thread (its worker-pool monitor ticks every second once a Swift "
                        + "task has run on that pool; peerd's run on the event loops), %.2f/s the rest",
                    idleSeconds,
                    conditions,
                    monitor ?? 0,
                    rates[0] - (monitor ?? 0)
                )
            ),
            Measurement(
                measure: "wakeups at rest, 5 connected peers",
                value: meshMean,
                unit: "/s",
                target: "≤ 3 /s",
                met: meshMean <= 3,
                detail: String(
                    format: "mean of a full mesh of 6 on loopback (highest %.2f), over the same %.0f s; %@",
                    meshRates.max() ?? 0,
                    idleSeconds,
                    conditions
                )
            ),
        ]
    }
}

/// Voluntary context switches of a daemon's threads since counting began, from
/// `/proc/PID/task/TID/status`. Sampled every `samplingInterval` through the window, so a thread that
/// starts and ends within it (an idle dispatch worker ends after a few seconds) counts too, up to
/// its last sample; one that started meanwhile counts from zero.
struct ThreadSwitches {
    static let samplingInterval = 0.2

    /// Per thread id: its name, its count when first seen (zero if born since counting began), and now.
    private var threads: [Int: (name: String, first: Int, last: Int)] = [:]
    private var started = false

    init(of daemon: TestDaemon) throws {
        try sample(daemon)
        started = true
    }

    mutating func sample(_ daemon: TestDaemon) throws {
        guard let pid = daemon.pid else { throw BenchError("\(daemon.name) is not running") }
        let tasks = "/proc/\(pid)/task"
        for tid in try FileManager.default.contentsOfDirectory(atPath: tasks) {
            // A thread that ended since the listing is left out.
            guard let id = Int(tid),
                let status = try? String(contentsOfFile: "\(tasks)/\(tid)/status", encoding: .utf8)
            else { continue }
            var name = "?"
            var count = 0
            for line in status.split(separator: "\n") {
                if line.hasPrefix("Name:") { name = line.dropFirst(5).trimmingCharacters(in: .whitespaces) }
                if line.hasPrefix("voluntary_ctxt_switches:") { count = Int(line.split(separator: "\t").last!) ?? 0 }
            }
            let first = threads[id]?.first ?? (started ? 0 : count)
            threads[id] = (name, first, count)
        }
    }

    var total: Int { threads.values.reduce(0) { $0 + $1.last - $1.first } }

    /// Switches by thread name (digits dropped, so a pool's threads add up), most first.
    var byThread: [(name: String, count: Int)] {
        var counts: [String: Int] = [:]
        for thread in threads.values {
            counts[String(thread.name.filter { !$0.isNumber }), default: 0] += thread.last - thread.first
        }
        return counts.filter { $0.value > 0 }.sorted { $0.value > $1.value }.map { ($0.key, $0.value) }
    }
}
