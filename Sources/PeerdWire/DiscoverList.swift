import PeerdModel

/// One of TMDB's movie lists, as `peerctl discover` names it (proto/CONTROL.md, "discover"; a peer
/// `query` of kind `discover` carries the same keys). Filters narrow `popular` and `top-rated`
/// only: with any of them the list is TMDB's `/3/discover/movie`, sorted by popularity or rating.
package struct DiscoverList: Hashable, Sendable, CustomStringConvertible {
    package enum Kind: String, CaseIterable, Sendable, Codable {
        case popular
        case topRated = "top-rated"
        case upcoming
        case nowPlaying = "now-playing"
        case trendingDay = "trending-day"
        case trendingWeek = "trending-week"

        package var words: String {
            switch self {
            case .popular: "popular"
            case .topRated: "top rated"
            case .upcoming: "upcoming"
            case .nowPlaying: "now playing"
            case .trendingDay: "trending today"
            case .trendingWeek: "trending this week"
            }
        }
    }

    package var kind: Kind
    package var filter: DiscoverFilter
    /// The name of a list a later version knows and this one doesn't (`kind` is then `popular`, and
    /// meaningless): kept, so the query is refused with `bad-request` and re-encodes as it came.
    package var unknownName: String?

    package init(_ kind: Kind = .popular, filter: DiscoverFilter = DiscoverFilter(), unknownName: String? = nil) {
        self.kind = kind
        self.filter = filter
        self.unknownName = unknownName
    }

    /// "popular", "top rated · genre 35 · 1999 · ≤ 110 min · rated ≥ 7.0".
    package var description: String {
        ([unknownName.map { "the list '\($0.prefix(40))'" } ?? kind.words] + filter.words).joined(separator: " · ")
    }

    /// Why this list can't be asked for, or nil. A request or a query is read whatever its values,
    /// and refused with this reason where it is answered, so a later version's list or filter is
    /// refused without closing the connection or the session.
    package var invalidReason: String? {
        if let unknownName {
            let known = Kind.allCases.map(\.rawValue).joined(separator: ", ")
            return "unknown list '\(unknownName.prefix(40))'; the lists are \(known)"
        }
        if let reason = filter.invalidReason { return reason }
        guard filter.isEmpty || kind == .popular || kind == .topRated else {
            return "filters narrow the popular and top-rated lists only, not \(kind.words)"
        }
        return nil
    }
}

/// What narrows a ``DiscoverList``: TMDB's `with_genres`, `primary_release_year`,
/// `with_runtime.lte`, `vote_average.gte` and, for a list's ceiling (proto/PEER.md, "Ceilings"),
/// `certification_country` with `certification.lte`.
package struct DiscoverFilter: Hashable, Sendable, Codable {
    /// A TMDB genre id (`peerctl genres` lists them).
    package var genre: Int?
    package var year: Int?
    /// Minutes.
    package var maxRuntime: Int?
    /// 0 to 10, TMDB's average vote.
    package var minRating: Double?
    /// The region whose certifications ``maxCertification`` is one of: both or neither are set.
    package var certificationCountry: String?
    /// Only movies certified this or lower in ``certificationCountry`` (TMDB leaves out movies with none there).
    package var maxCertification: String?

    package init(
        genre: Int? = nil,
        year: Int? = nil,
        maxRuntime: Int? = nil,
        minRating: Double? = nil,
        certificationCountry: String? = nil,
        maxCertification: String? = nil
    ) {
        self.genre = genre
        self.year = year
        self.maxRuntime = maxRuntime
        self.minRating = minRating
        self.certificationCountry = certificationCountry
        self.maxCertification = maxCertification
    }

    /// The longest certification a filter carries (TMDB's are a few characters: `PG-13`, `MA 15+`).
    package static let maxCertificationLength = 16

    package var isEmpty: Bool { self == DiscoverFilter() }

    var words: [String] {
        [
            genre.map { "genre \($0)" }, year.map(String.init), maxRuntime.map { "≤ \($0) min" },
            minRating.map { "rated ≥ \(Double(Int(($0 * 10).rounded())) / 10)" },
            maxCertification.map {
                "up to \($0.prefix(Self.maxCertificationLength)) in \(certificationCountry ?? "?")"
            },
        ].compactMap { $0 }
    }

    var invalidReason: String? {
        if let genre, !(1...Int(Int32.max)).contains(genre) { return "a genre is one of TMDB's genre ids" }
        if let year, !(1870...9999).contains(year) { return "a year is between 1870 and 9999" }
        if let maxRuntime, !(1...1_000).contains(maxRuntime) { return "a longest runtime is 1 to 1000 minutes" }
        if let minRating, !(minRating.isFinite && (0...10).contains(minRating)) {
            return "a least rating is 0 to 10"
        }
        return ceilingInvalidReason
    }

    private var ceilingInvalidReason: String? {
        switch (certificationCountry, maxCertification) {
        case (nil, nil): return nil
        case (let country?, let certification?):
            guard GroupSettings.isRegion(country) else { return "a certification country is two capital letters" }
            guard (1...Self.maxCertificationLength).contains(certification.count),
                !certification.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else { return "a highest certification is 1 to \(Self.maxCertificationLength) characters" }
            return nil
        default: return "a highest certification and its country go together"
        }
    }
}

extension DiscoverList: Codable {
    enum CodingKeys: String, CodingKey {
        case list
    }

    /// The list's keys sit beside those of the message that carries it: `list` (default `popular`)
    /// and the filter's `genre`, `year`, `maxRuntime` and `minRating`. Values out of bounds are
    /// kept as they came (``invalidReason`` says why they can't be asked for).
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decodeIfPresent(String.self, forKey: .list) ?? Kind.popular.rawValue
        let kind = Kind(rawValue: name)
        self.init(kind ?? .popular, filter: try DiscoverFilter(from: decoder), unknownName: kind == nil ? name : nil)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(unknownName ?? kind.rawValue, forKey: .list)
        try filter.encode(to: encoder)
    }
}
