/// How often news checks run, as a person writes it: a whole number and a unit, `10s`, `30m`,
/// `6h`, `1d` (README, "News"). At least a second: tests and demos use seconds, a household a day.
package struct NewsInterval: Hashable, Sendable {
    package let duration: Duration

    /// A day: each wanted movie is checked once a day, at a time of its own.
    package static let standard = Duration.seconds(86_400)

    package init?(_ text: String) {
        guard let unit = text.last, let count = Int64(text.dropLast()), count >= 1 else { return nil }
        let seconds: Int64? =
            switch unit {
            case "s": 1
            case "m": 60
            case "h": 3_600
            case "d": 86_400
            default: nil
            }
        guard let seconds, count <= 365 * 86_400 / seconds else { return nil }
        duration = .seconds(count * seconds)
    }
}
