import PeerdModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wall-clock time for display fields (`at`, `connectedSince`) and the day marks are checked
/// against; never used to order anything.
enum Wallclock {
    static func millis() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    /// Today where this machine is, `YYYY-MM-DD`: what a seen day is checked against.
    static func today() -> String { LocalTime.now.date }
}
