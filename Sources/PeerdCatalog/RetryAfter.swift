/// HTTP's `Retry-After` (RFC 9110, 10.2.3): a number of seconds, or an HTTP-date
/// (`Sun, 06 Nov 1994 08:49:37 GMT`) read against the current time.
enum RetryAfter {
    /// How long to wait, or nil when the value is neither form. A date in the past is zero.
    static func parse(_ value: String, now secondsSince1970: Int64) -> Duration? {
        let text = value.split(separator: " ", omittingEmptySubsequences: true)
        if text.count == 1, let seconds = Int64(text[0]), seconds >= 0 { return .seconds(seconds) }
        guard let date = httpDate(text) else { return nil }
        return .seconds(max(0, date - secondsSince1970))
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// IMF-fixdate only (the form senders must use): seconds since 1970.
    private static func httpDate(_ parts: [Substring]) -> Int64? {
        guard parts.count == 6, parts[5] == "GMT", let day = Int64(parts[1]), let year = Int64(parts[3]),
            let month = months.firstIndex(of: String(parts[2])), (1...31).contains(day), (1970...9999).contains(year)
        else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int64($0) }
        guard clock.count == 3, (0..<24).contains(clock[0]), (0..<60).contains(clock[1]), (0...60).contains(clock[2])
        else { return nil }
        let days = daysSince1970(year: year, month: Int64(month) + 1, day: day)
        return days * 86_400 + clock[0] * 3_600 + clock[1] * 60 + clock[2]
    }

    /// Howard Hinnant's days_from_civil.
    private static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
