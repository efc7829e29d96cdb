import PeerdModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The `Date` header's form (RFC 9110, IMF-fixdate): `Sun, 06 Nov 1994 08:49:37 GMT`.
enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func now() -> String { format(Int(time(nil))) }

    /// `seconds` since the epoch, in UTC.
    static func format(_ seconds: Int) -> String {
        var clock = time_t(seconds)
        var parts = tm()
        gmtime_r(&clock, &parts)
        func two(_ value: Int32) -> String { LocalTime.twoDigits(Int(value)) }
        let day = "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday))"
        let date = "\(day) \(months[Int(parts.tm_mon)]) \(1900 + parts.tm_year)"
        return "\(date) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
