import PeerdModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// How `peerctl import` shows how far it got: a bar with the count, the rate and the time left on
/// a terminal (stderr, redrawn in place); plain lines elsewhere, every tenth of the rows or 10 s;
/// with `--json`, one `progress` event per answer on stdout.
struct ImportProgress {
    enum Style { case bar, lines, json }

    let style: Style
    let total: Int
    private let started = ContinuousClock.now
    private var lastLine: (at: ContinuousClock.Instant, done: Int)?
    private(set) var done = 0

    init(total: Int, json: Bool) {
        self.total = total
        style = json ? .json : isatty(STDERR_FILENO) == 1 ? .bar : .lines
    }

    /// The rows done per second so far, and the seconds left at that rate.
    var pace: (rate: Double, left: Double?) {
        let seconds = elapsed / .seconds(1)
        let rate = seconds > 0 ? Double(done) / seconds : 0
        return (rate, rate > 0 && done < total ? Double(total - done) / rate : nil)
    }

    var elapsed: Duration { ContinuousClock.now - started }

    mutating func advance(by rows: Int) {
        done += rows
        let (rate, left) = pace
        switch style {
        case .json:
            let left = left.map { Int($0.rounded()) }
            Output.jsonLine(
                Event(done: done, total: total, rowsPerSecond: (rate * 10).rounded() / 10, secondsLeft: left)
            )
            Output.flush()
        case .bar:
            let width = 24
            let filled = total > 0 ? width * done / total : width
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            let eta = left.map { " ETA " + Self.clock($0) } ?? ""
            FileHandleless.standardError("\r\u{1B}[K[\(bar)] \(done)/\(total)  \(Self.rate(rate))\(eta)")
        case .lines:
            let now = ContinuousClock.now
            let step = max(1, total / 10)
            if let last = lastLine, done < total, done - last.done < step, now - last.at < .seconds(10) { return }
            lastLine = (now, done)
            let eta = left.map { ", about \(Self.clock($0)) left" } ?? ""
            Output.note("\(done)/\(total) rows, \(Self.rate(rate))\(eta)")
        }
    }

    /// Ends the bar's line, so that what follows starts on its own.
    func finish() {
        if style == .bar { FileHandleless.standardError("\n") }
    }

    struct Event: Encodable {
        var event = "progress"
        var done: Int
        var total: Int
        var rowsPerSecond: Double
        var secondsLeft: Int?
    }

    static func rate(_ rate: Double) -> String {
        Output.oneDecimal(rate) + " rows/s"
    }

    /// `0:25`, `12:03`, `1:02:03`.
    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        let two = LocalTime.twoDigits
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(secs))" : "\(minutes):\(two(secs))"
    }
}
