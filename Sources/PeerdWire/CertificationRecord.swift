/// A movie's certification in a region, with how that region ranks its certifications: what a token holder
/// answers a `certification` query with (proto/PEER.md, "Catalog queries"), so that a machine without a token
/// can keep a list's ceiling (proto/PEER.md, "Ceilings").
package struct CertificationRecord: Hashable, Sendable, Codable {
    /// The ISO 3166-1 country asked about.
    package var region: String
    /// The movie's certification there; absent when TMDB knows none.
    package var certification: String?
    /// The region's certifications, least restrictive first (at most ``maxOrder``); empty when TMDB ranks none.
    package var order: [String]

    /// The most certifications an order carries (TMDB's longest lists have about a dozen).
    package static let maxOrder = 64

    package init(region: String, certification: String?, order: [String]) {
        self.region = region
        self.certification = certification
        self.order = order
    }
}
