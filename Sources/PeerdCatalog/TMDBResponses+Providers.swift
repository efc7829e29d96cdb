package import PeerdModel

/// Where to watch: a movie's offers in one region, and the services TMDB knows in a region.
extension TMDBResponses {
    /// `watch/providers` appended to a movie's details: the offers in `region`, each kind in TMDB's
    /// display order, cut to ``WatchProviders/maxPerKind``. None listed there (or no
    /// `watch/providers` at all, though it was asked for) is an empty `WatchProviders` of the
    /// region: a describe always says which region it looked in, so it is not fetched again for it
    /// (``WatchListRow/awaitsDescribe(region:)``), however TMDB answers.
    static func providers(_ body: [UInt8], region: String) throws(CatalogError) -> WatchProviders {
        providers(in: try decode(TMDBShapes.Appended.self, from: body).watchProviders?.results ?? [:], region: region)
    }

    /// `/3/movie/{id}/watch/providers` on its own (a news check): the offers in `region`, as
    /// ``providers(_:region:)`` reads them from a movie's details.
    package static func movieProviders(_ body: [UInt8], region: String) throws(CatalogError) -> WatchProviders {
        providers(in: try decode(TMDBShapes.WatchProviderResults.self, from: body).results ?? [:], region: region)
    }

    private static func providers(in results: [String: TMDBShapes.RegionOffers], region: String) -> WatchProviders {
        guard let offers = results[region] else { return WatchProviders(region: region) }
        func providers(_ list: [TMDBShapes.Offer]?) -> [WatchProviders.Provider] {
            let sorted = (list ?? []).sorted { ($0.displayPriority ?? .max) < ($1.displayPriority ?? .max) }
            let kept = sorted.compactMap { provider(id: $0.providerId, name: $0.providerName, logo: $0.logoPath) }
            return Array(kept.prefix(WatchProviders.maxPerKind))
        }
        let link = offers.link.flatMap {
            $0.hasPrefix("https://") && $0.utf8.count <= MovieDetails.maxPathLength ? $0 : nil
        }
        return WatchProviders(
            region: region,
            link: link,
            stream: providers(offers.flatrate),
            rent: providers(offers.rent),
            buy: providers(offers.buy)
        )
    }

    /// The most services a region's list holds here (TMDB lists a few hundred in the largest).
    package static let maxRegionProviders = 500

    /// `/3/watch/providers/movie?watch_region=…`: the services TMDB knows in `region`, in its display
    /// order there, each with an id and a name a describe allows; at most ``maxRegionProviders``.
    package static func regionProviders(_ body: [UInt8], region: String) throws(CatalogError)
        -> [WatchProviders.Provider]
    {
        let list = try decode(TMDBShapes.ProviderList.self, from: body)
        let sorted = list.results.enumerated().sorted { a, b in
            let first = a.element.displayPriorities?[region] ?? a.element.displayPriority ?? .max
            let second = b.element.displayPriorities?[region] ?? b.element.displayPriority ?? .max
            return (first, a.offset) < (second, b.offset)
        }
        let providers = sorted.compactMap {
            provider(id: $0.element.providerId, name: $0.element.providerName, logo: $0.element.logoPath)
        }
        return Array(providers.prefix(maxRegionProviders))
    }

    /// A provider as TMDB lists it, when it has an id and a name a describe allows.
    private static func provider(id: Int?, name: String?, logo: String?) -> WatchProviders.Provider? {
        guard let id, id >= 0, let name, !name.isEmpty, name.count <= WatchProviders.maxNameLength else { return nil }
        return WatchProviders.Provider(id: id, name: name, logoPath: logo.flatMap(path))
    }
}
