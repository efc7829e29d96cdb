import PeerdModel
import PeerdWire

/// Certifications: a movie's, from its release dates, and how each country ranks them.
extension TMDBResponses {
    /// `/3/movie/{id}/release_dates`: the movie's certification in each country that has one.
    package static func releaseDates(_ body: [UInt8]) throws(CatalogError) -> MovieCertifications {
        certifications(of: try decode(TMDBShapes.ReleaseDates.self, from: body))
    }

    /// `release_dates` appended to a movie's details: as ``releaseDates(_:)``, or nil when the body has none
    /// (then nothing is known of the movie's certifications, which is not the same as knowing it has none).
    package static func appendedReleaseDates(_ body: [UInt8]) throws(CatalogError) -> MovieCertifications? {
        try decode(TMDBShapes.AppendedReleaseDates.self, from: body).releaseDates.map(certifications(of:))
    }

    /// The most certifications a country's order holds here (TMDB's longest lists have about a dozen).
    package static let maxCountryCertifications = CertificationRecord.maxOrder

    /// `/3/certification/movie/list`: each country's certifications, least restrictive first (by TMDB's `order`).
    /// Entries without a certification or an order are left out, and so is a country code that is not two
    /// capital letters.
    package static func certificationOrders(_ body: [UInt8]) throws(CatalogError) -> Certifications {
        let list = try decode(TMDBShapes.CertificationList.self, from: body)
        var orders: [String: CertificationOrder] = [:]
        for (country, entries) in list.certifications where GroupSettings.isRegion(country) {
            let listed = entries.compactMap { entry -> (certification: String, order: Int)? in
                guard let certification = entry.certification, let order = entry.order else { return nil }
                return (MovieCertifications.trimmed(certification), order)
            }
            orders[country] = CertificationOrder(
                Array(CertificationOrder(listed: listed).ranked.prefix(maxCountryCertifications))
            )
        }
        return Certifications(orders: orders)
    }

    private static func certifications(of dates: TMDBShapes.ReleaseDates) -> MovieCertifications {
        var releases: [String: [MovieCertifications.Release]] = [:]
        for country in dates.results ?? [] {
            guard let code = country.iso31661, GroupSettings.isRegion(code) else { continue }
            releases[code, default: []] += (country.releaseDates ?? []).map {
                MovieCertifications.Release(certification: $0.certification ?? "", type: $0.type)
            }
        }
        return MovieCertifications(releases: releases)
    }
}
