/// One member's mark on a movie (proto/PEER.md, "Marks"): that they want to watch it, have seen it,
/// rate it, or veto it. A `mark` operation carries one, and its origin is the member: nobody can set
/// another member's marks. The newest mark of a kind wins per member and movie, by the list's order.
///
/// A class, like ``GroupSettings``, so that an operation holds it in one pointer's room
/// (``Operation/Payload``).
package final class Mark: Hashable, Sendable, Codable, CustomStringConvertible {
    package enum Kind: String, CaseIterable, Hashable, Sendable, Codable {
        case want, seen, rating, veto
    }

    package let kind: Kind
    /// True sets the mark; false clears it (`peerctl unmark`).
    package let set: Bool
    /// For a set `seen`: the day it was seen, `YYYY-MM-DD`, when the member said.
    package let on: String?
    /// For a set `rating`: 1 to 10.
    package let rating: Int?

    package init(kind: Kind, set: Bool = true, on: String? = nil, rating: Int? = nil) {
        self.kind = kind
        self.set = set
        self.on = on
        self.rating = rating
    }

    /// The mark with these values: without a day, one shared instance each (most marks are one of
    /// those few, and a log of 200,000 marks would otherwise hold as many copies).
    package static func make(kind: Kind, set: Bool, on: String?, rating: Int?) -> Mark {
        guard on == nil else { return Mark(kind: kind, set: set, on: on, rating: rating) }
        if rating == nil { return common[kind]![set ? 1 : 0] }
        if kind == .rating, set, let rating, (1...10).contains(rating) { return ratings[rating - 1] }
        return Mark(kind: kind, set: set, rating: rating)
    }

    private static let common = Dictionary(
        uniqueKeysWithValues: Kind.allCases.map { kind in (kind, [Mark(kind: kind, set: false), Mark(kind: kind)]) }
    )
    private static let ratings = (1...10).map { Mark(kind: .rating, rating: $0) }

    /// Why this mark can't be stored, or nil when it can.
    package var invalidReason: String? {
        if on != nil, kind != .seen || !set { return "only a set seen mark carries a day" }
        if let on, !Day.isDay(on) { return "a day is YYYY-MM-DD" }
        if kind == .rating, set {
            guard let rating, (1...10).contains(rating) else { return "a rating is 1 to 10" }
        } else if rating != nil {
            return "only a set rating mark carries a rating"
        }
        return nil
    }

    package var description: String {
        switch (kind, set) {
        case (.want, true): "want to watch"
        case (.want, false): "don't want to watch"
        case (.seen, true): on.map { "seen on \($0)" } ?? "seen"
        case (.seen, false): "not seen"
        case (.rating, true): "rated \(rating ?? 0)/10"
        case (.rating, false): "no rating"
        case (.veto, true): "vetoed"
        case (.veto, false): "no veto"
        }
    }

    package static func == (lhs: Mark, rhs: Mark) -> Bool {
        lhs === rhs || (lhs.kind == rhs.kind && lhs.set == rhs.set && lhs.on == rhs.on && lhs.rating == rhs.rating)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(set)
        hasher.combine(on)
        hasher.combine(rating)
    }
}

/// A calendar day as marks and watches write it: `YYYY-MM-DD`, a real date of years 1900 to 2999.
package enum Day {
    package static func isDay(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            (1900...2999).contains(year), (1...12).contains(month), day >= 1
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= days[month - 1]
    }

    /// Why something can't have been seen on `day` when it is `today` where the member is: a day
    /// after tomorrow has begun nowhere yet (tomorrow is allowed: somewhere it has). Nil when it can.
    package static func futureReason(_ day: String, today: String) -> String? {
        guard let tomorrow = adding(1, to: today), isDay(day), day > tomorrow else { return nil }
        return "\(day) hasn't come yet (today is \(today)); give the day you saw it, or leave the day out"
    }

    /// `day` moved by `days` (back when negative); nil when `day` is not a day or the result is
    /// out of ``isDay(_:)``'s years.
    package static func adding(_ days: Int, to day: String) -> String? {
        guard isDay(day) else { return nil }
        let parts = day.split(separator: "-").map { Int($0)! }
        let (year, month, date) = civil(fromEpochDay: epochDay(year: parts[0], month: parts[1], day: parts[2]) + days)
        let moved = LocalTime(year: year, month: month, day: date).date
        return isDay(moved) ? moved : nil
    }

    // The day counts below are Howard Hinnant's `days_from_civil` and `civil_from_days`
    // (proleptic Gregorian, day 0 = 1970-01-01), written out because the model takes no calendar
    // library: Foundation's is out of reach here, and these are a dozen lines of arithmetic.
    static func epochDay(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromEpochDay days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
