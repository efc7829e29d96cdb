#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wall-clock time for display fields (`at`, `connectedSince`) and the day marks are checked
/// against; never used to order anything.
///
/// The one place that reads `CLOCK_REALTIME`, in this module because the daemon's own (which also
/// imports SwiftNIO) sees `timespec` twice, as Glibc's and as NIO's C shim's, and a clean build
/// there refuses its fields (`MemberImportVisibility`).
package enum Wallclock {
    /// Milliseconds since 1970.
    package static func millis() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    /// Today where this machine is, `YYYY-MM-DD`: what a seen day is checked against.
    package static func today() -> String { LocalTime.now.date }
}
