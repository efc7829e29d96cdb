/// A movie's id in The Movie Database (TMDB), e.g. 603 for The Matrix.
package struct MovieID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    package let rawValue: Int

    /// TMDB ids are positive; anything else is refused.
    package init?(_ rawValue: Int) {
        guard rawValue > 0 else { return nil }
        self.rawValue = rawValue
    }

    package var description: String { String(rawValue) }

    package static func < (lhs: MovieID, rhs: MovieID) -> Bool { lhs.rawValue < rhs.rawValue }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let id = MovieID(try container.decode(Int.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a movie id is a positive integer")
        }
        self = id
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// What an add says about a movie. Only the id is required; title and year are what the adder knew.
package struct Movie: Hashable, Sendable, Codable {
    package static let maxTitleLength = 300

    package var id: MovieID
    package var title: String?
    package var year: Int?

    package init(id: MovieID, title: String? = nil, year: Int? = nil) {
        self.id = id
        self.title = title
        self.year = year
    }

    /// Why a movie can't be stored, or nil when it can.
    package var invalidReason: String? {
        if let title, title.unicodeScalars.count > Self.maxTitleLength {
            return "a title is at most \(Self.maxTitleLength) characters"
        }
        if let title, title.isEmpty { return "a title, when given, is not empty" }
        if let year, !(1870...9999).contains(year) { return "a year is between 1870 and 9999" }
        return nil
    }
}
