import Logging
package import PeerdModel

/// Certifications, for a list's ceiling (proto/PEER.md, "Ceilings"): a movie's, cached beside its details, and
/// each country's order, fetched once and kept.
extension CatalogService {
    /// `movie`'s certification in `region`, nil when TMDB knows none there (``MovieCertifications``).
    package func certification(
        of movie: MovieID,
        in region: String,
        for asker: TMDBClient.RequestFor = .us
    ) async throws(CatalogError) -> String? {
        try await certifications(of: movie, for: asker).certification(in: region)
    }

    /// `movie`'s certifications: cached, else fetched with its details (one request: both are cached, so the
    /// describe that follows asks TMDB nothing more), or alone when its details are cached without them.
    func certifications(
        of movie: MovieID,
        for asker: TMDBClient.RequestFor
    ) async throws(CatalogError) -> MovieCertifications {
        let language = client.settings.language
        if let cached = await cache.certifications(of: movie, language: language) { return cached }
        if await cache.details(of: movie, language: language) == nil {
            let fetched = try await client.fetchMovie(movie, region: await replica.groupRegion(), for: asker)
            await save(fetched, of: movie)
            if let certifications = fetched.certifications { return certifications }
        }
        let found = try await client.certifications(of: movie, for: asker)
        do {
            try await cache.store(found, of: movie, language: language)
        } catch {
            logger.warning("could not cache certifications", metadata: ["movie": "\(movie)", "cause": "\(error)"])
        }
        return found
    }

    /// How `country` ranks its certifications: TMDB's list, read from the cache or fetched once, then kept.
    /// An order fetched once is not fetched again (countries change their systems once in years); removing
    /// the cache's `certifications.json` fetches it anew.
    package func certificationOrder(
        in country: String,
        for asker: TMDBClient.RequestFor = .us
    ) async throws(CatalogError) -> CertificationOrder {
        if let orders = certificationOrders { return orders.order(in: country) }
        if let cached = await cache.certificationOrders() {
            certificationOrders = cached
            return cached.order(in: country)
        }
        let fetched = try await client.certificationOrders(for: asker)
        certificationOrders = fetched
        do {
            try await cache.storeCertificationOrders(fetched)
        } catch {
            logger.warning("could not cache the certification orders", metadata: ["cause": "\(error)"])
        }
        return fetched.order(in: country)
    }
}
