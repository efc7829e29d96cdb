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
}
