/// How waits read in messages: "12 s", "4 min", "2 h".
package enum FetchWait {
    package static func text(_ duration: Duration) -> String {
        let milliseconds = max(0, duration.wholeMilliseconds)
        if milliseconds < 1_000 { return milliseconds == 0 ? "0 s" : "\(milliseconds) ms" }
        let seconds = (milliseconds + 999) / 1_000
        if seconds < 120 { return "\(seconds) s" }
        if seconds < 7_200 { return "\((seconds + 59) / 60) min" }
        return "\((seconds + 3_599) / 3_600) h"
    }
}

extension Duration {
    /// Whole milliseconds, rounded toward zero.
    var wholeMilliseconds: Int64 {
        components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000
    }
}
