/// A movie's id in The Movie Database (TMDB), e.g. 603 for The Matrix.
public struct MovieID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: Int

    /// TMDB ids are positive; anything else is refused.
    public init?(_ rawValue: Int) {
        guard rawValue > 0 else { return nil }
        self.rawValue = rawValue
    }

    public var description: String { String(rawValue) }

    public static func < (lhs: MovieID, rhs: MovieID) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let id = MovieID(try container.decode(Int.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a movie id is a positive integer")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// What an add says about a movie. Only the id is required; title and year are what the adder knew.
public struct Movie: Hashable, Sendable, Codable {
    public static let maxTitleLength = 300

    public var id: MovieID
    public var title: String?
    public var year: Int?

    public init(id: MovieID, title: String? = nil, year: Int? = nil) {
        self.id = id
        self.title = title
        self.year = year
    }

    /// Why a movie can't be stored, or nil when it can.
    public var invalidReason: String? {
        if let title, title.unicodeScalars.count > Self.maxTitleLength {
            return "a title is at most \(Self.maxTitleLength) characters"
        }
        if let title, title.isEmpty { return "a title, when given, is not empty" }
        if let year, !(1870...9999).contains(year) { return "a year is between 1870 and 9999" }
        return nil
    }
}
