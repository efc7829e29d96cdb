import Foundation
import PeerdTestKit
import PeerdTestSupport

/// Resident memory of a daemon at rest, as a user starts it: a fresh state dir, the page on, the guest
/// door on (it listens only while a pick is open), no TMDB token, no group secret; VmRSS
/// ``idleMemorySettle`` after start, beside Syncthing's idle RSS (bench/syncthing_idle.py).
extension Scenarios {
    static let idleMemorySettle = 1.5
    static let idleMemoryStarts = 5

    func idleMemory() throws -> [Measurement] {
        let scratch = try ScratchDirectory("bench-idle-memory")
        var samples: [ResidentMemory] = []
        for start in 1...Self.idleMemoryStarts {
            let daemon = try TestDaemon("rest\(start)", in: scratch, logLevel: "info", groupSecret: nil)
            Thread.sleep(forTimeInterval: Self.idleMemorySettle)
            samples.append(try ResidentMemory(of: daemon))
            daemon.stop()
        }
        samples.sort { $0.total < $1.total }
        let median = samples[samples.count / 2]
        return [
            Measurement(
                measure: "daemon RSS at rest, page and guest door on",
                value: median.total,
                unit: "MB",
                target: "≤ 16 MB",
                met: median.total <= 16,
                detail: String(
                    format: "VmRSS %.1f s after start, median of %d fresh state dirs (%.1f–%.1f MB); of the median "
                        + "%.1f MB anonymous, %.1f MB file-backed (pages of the executable and its libraries), %d "
                        + "threads; no TMDB token, no mDNS; Syncthing at rest: 16.6 MB",
                    Self.idleMemorySettle,
                    samples.count,
                    samples.first!.total,
                    samples.last!.total,
                    median.anonymous,
                    median.file,
                    median.threads
                )
            )
        ]
    }
}

/// A process's resident memory in MB (MiB, as VmRSS counts kB) from /proc/PID/status.
struct ResidentMemory {
    var total = 0.0
    var anonymous = 0.0
    var file = 0.0
    var threads = 0

    init(of daemon: TestDaemon) throws {
        guard let pid = daemon.pid, let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        else { throw BenchError("\(daemon.name) is not running") }
        for line in status.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2, let number = Double(fields[1]) else { continue }
            switch fields[0] {
            case "VmRSS:": total = number / 1024
            case "RssAnon:": anonymous = number / 1024
            case "RssFile:": file = number / 1024
            case "Threads:": threads = Int(number)
            default: break
            }
        }
    }
}
