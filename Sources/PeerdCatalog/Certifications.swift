/// How each country ranks its movie certifications (content ratings: `G`, `PG`, `R`; `0`, `6`, `12`), from TMDB's
/// `/3/certification/movie/list`: the rule a list's ceiling (proto/PEER.md, "Ceilings") is kept by. Pure.
package struct Certifications: Hashable, Sendable, Codable {
    /// Each country's certifications (by ISO 3166-1 code), least restrictive first.
    package var orders: [String: CertificationOrder]

    package init(orders: [String: CertificationOrder]) {
        self.orders = orders
    }

    /// `country`'s order; an empty one (which places nothing) for a country TMDB ranks nothing in.
    package func order(in country: String) -> CertificationOrder {
        orders[country] ?? CertificationOrder([])
    }

    /// A certification that says the movie has none: TMDB's US list ranks `NR` ("no rating information") first,
    /// below `G`, so taken at its place it would pass every ceiling. peerd reads it as no certification at all.
    package static func isUnrated(_ certification: String) -> Bool {
        certification.isEmpty || certification == "NR"
    }
}

/// One country's certifications, least restrictive first.
package struct CertificationOrder: Hashable, Sendable {
    package let ranked: [String]

    package init(_ ranked: [String]) {
        self.ranked = ranked
    }

    package func contains(_ certification: String) -> Bool {
        ranked.contains(certification)
    }

    /// Whether a movie certified `certification` is kept out by a ceiling of `ceiling`. A certification this order
    /// doesn't know counts as above, and so does everything under a ceiling it doesn't know: a ceiling is a
    /// promise to the parents of a kids' list, and a certification that cannot be placed (a typo on TMDB, a
    /// country's system that changed since the order was fetched) cannot be shown to keep it, so it fails closed.
    package func isAbove(_ certification: String, ceiling: String) -> Bool {
        guard let rank = ranked.firstIndex(of: certification), let top = ranked.firstIndex(of: ceiling) else {
            return true
        }
        return rank > top
    }
}

extension CertificationOrder {
    /// `[{certification, order}]` as TMDB lists a country's: sorted by `order` (ties in TMDB's order), without
    /// the empty and the unrated ones (``Certifications/isUnrated(_:)``) and without repeats.
    package init(listed: [(certification: String, order: Int)]) {
        let sorted = listed.enumerated().sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }
        var ranked: [String] = []
        for entry in sorted.map(\.element.certification) where !Certifications.isUnrated(entry) {
            if !ranked.contains(entry) { ranked.append(entry) }
        }
        self.init(ranked)
    }
}

extension CertificationOrder: Codable {
    /// As a plain array, least restrictive first: `["G","PG","PG-13","R","NC-17"]`.
    package init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode([String].self))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(ranked)
    }
}
