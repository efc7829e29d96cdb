package import PeerdModel

/// A movie's details as TMDB answered them, with its certifications when its release dates came along
/// (nil when they did not: then nothing is known of them).
package struct FetchedMovie: Sendable {
    package var details: MovieDetails
    package var certifications: MovieCertifications?

    package init(details: MovieDetails, certifications: MovieCertifications?) {
        self.details = details
        self.certifications = certifications
    }
}

extension TMDBClient {
    /// `/3/movie/{id}/release_dates`: the movie's certification in each country that has one.
    package func certifications(
        of movie: MovieID,
        for asker: RequestFor = .us
    ) async throws(CatalogError) -> MovieCertifications {
        let request = TMDBRequest.releaseDates(movie)
        let body = try await fetch(request, for: asker)
        return try Self.parsing(request) { () throws(CatalogError) in try TMDBResponses.releaseDates(body) }
    }

    /// `/3/certification/movie/list`: how each country ranks its certifications.
    package func certificationOrders(for asker: RequestFor = .us) async throws(CatalogError) -> Certifications {
        let body = try await fetch(.certifications, for: asker)
        return try Self.parsing(.certifications) { () throws(CatalogError) in
            try TMDBResponses.certificationOrders(body)
        }
    }
}
