#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A moment in this machine's time zone, as peerd writes it for people: `2026-12-05`, `04:33:21`,
/// `2026-12-05 04:33`. The one place that pads the fields; ``at(millis:)`` is the one that asks the
/// C library for the zone (the rest is plain arithmetic on the fields).
package struct LocalTime: Hashable, Sendable {
    package var year: Int
    package var month: Int
    package var day: Int
    package var hour: Int
    package var minute: Int
    package var second: Int

    package init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second) = (hour, minute, second)
    }

    /// `millis` since 1970 in this machine's time zone (`localtime_r`).
    package static func at(millis: Int64) -> LocalTime {
        var seconds = time_t(millis / 1000)
        var local = tm()
        localtime_r(&seconds, &local)
        return LocalTime(
            year: Int(local.tm_year) + 1900,
            month: Int(local.tm_mon) + 1,
            day: Int(local.tm_mday),
            hour: Int(local.tm_hour),
            minute: Int(local.tm_min),
            second: Int(local.tm_sec)
        )
    }

    /// Now, in this machine's time zone.
    package static var now: LocalTime { at(millis: Wallclock.millis()) }

    /// `n` in two digits or more: `04`, `12`.
    package static func twoDigits(_ n: Int) -> String { n < 10 && n >= 0 ? "0\(n)" : "\(n)" }

    /// `YYYY-MM-DD`.
    package var date: String { "\(year)-\(Self.twoDigits(month))-\(Self.twoDigits(day))" }

    /// `HH:MM:SS`.
    package var clock: String { "\(Self.twoDigits(hour)):\(Self.twoDigits(minute)):\(Self.twoDigits(second))" }

    /// `YYYY-MM-DD HH:MM`.
    package var stamp: String { "\(date) \(Self.twoDigits(hour)):\(Self.twoDigits(minute))" }

    /// `HH:MM:SS` on `today`'s date, else `YYYY-MM-DD HH:MM`: a time people read beside "now".
    package func shown(today: LocalTime) -> String { date == today.date ? clock : stamp }
}
