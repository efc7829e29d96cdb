/// A movie's certification in each country TMDB has one for, from its release dates
/// (`/3/movie/{id}/release_dates`, or `append_to_response=release_dates` on its details). Pure; cached beside the
/// movie's details (``DetailsCache``) as `{"DE":"12","US":"R"}`.
package struct MovieCertifications: Hashable, Sendable {
    /// By ISO 3166-1 code; a country with no certification is left out.
    package var byCountry: [String: String]

    package init(byCountry: [String: String]) {
        self.byCountry = byCountry
    }

    /// From each country's release dates: ``certification(among:)`` of each.
    package init(releases: [String: [Release]]) {
        self.init(byCountry: releases.compactMapValues(Self.certification(among:)))
    }

    /// The movie's certification in `region`, or nil when TMDB knows none there.
    package func certification(in region: String) -> String? {
        byCountry[region]
    }

    /// One release of a movie in one country, as TMDB lists it.
    package struct Release: Hashable, Sendable {
        package var certification: String
        /// TMDB's release type: 1 premiere, 2 limited theatrical, 3 theatrical, 4 digital, 5 physical, 6 TV.
        package var type: Int?

        package init(certification: String, type: Int?) {
            self.certification = certification
            self.type = type
        }
    }

    /// The release types in the order their certification is taken: the theatrical release's first (it is
    /// the one a country's board rated), then a limited one, the premiere, digital, physical and TV. A
    /// release of a type TMDB adds later comes last.
    static let preferredTypes = [3, 2, 1, 4, 5, 6]

    /// The first certification among `releases` that is not empty (nor unrated,
    /// ``Certifications/isUnrated(_:)``), preferring types in ``preferredTypes`` order and, within a type,
    /// TMDB's order; nil when there is none.
    package static func certification(among releases: [Release]) -> String? {
        let rated = releases.enumerated().compactMap { offset, release -> (rank: Int, offset: Int, text: String)? in
            let text = trimmed(release.certification)
            guard !Certifications.isUnrated(text) else { return nil }
            let rank = release.type.flatMap { preferredTypes.firstIndex(of: $0) } ?? preferredTypes.count
            return (rank, offset, text)
        }
        return rated.min { ($0.rank, $0.offset) < ($1.rank, $1.offset) }?.text
    }

    /// Without the spaces TMDB's users sometimes leave around a certification (`"PG-13 "`).
    static func trimmed(_ text: String) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

extension MovieCertifications: Codable {
    package init(from decoder: any Decoder) throws {
        self.init(byCountry: try decoder.singleValueContainer().decode([String: String].self))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(byCountry)
    }
}
