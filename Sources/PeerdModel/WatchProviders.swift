/// Where a movie can be watched in one region, as TMDB lists it from JustWatch's data
/// (`/3/movie/{id}/watch/providers`): a describe carries it with the rest of the details, so it
/// is fetched once per movie, with them, and refreshed with them.
package struct WatchProviders: Hashable, Sendable, Codable {
    package static let maxPerKind = 20
    package static let maxNameLength = 64

    /// An ISO 3166-1 country code: `US`, `DE`.
    package let region: String
    /// TMDB's page of where to watch the movie there (which links on to the providers).
    package let link: String?
    /// On a subscription (TMDB's `flatrate`), to rent, and to buy; each in TMDB's display order.
    @OmittedWhenEmpty package var stream: [Provider]
    @OmittedWhenEmpty package var rent: [Provider]
    @OmittedWhenEmpty package var buy: [Provider]

    package struct Provider: Hashable, Sendable, Codable {
        /// TMDB's provider id (8 is Netflix).
        package let id: Int
        package let name: String
        /// The logo's path on TMDB's image server.
        package let logoPath: String?

        package init(id: Int, name: String, logoPath: String? = nil) {
            self.id = id
            self.name = name
            self.logoPath = logoPath
        }
    }

    package init(
        region: String,
        link: String? = nil,
        stream: [Provider] = [],
        rent: [Provider] = [],
        buy: [Provider] = []
    ) {
        self.region = region
        self.link = link
        self.stream = stream
        self.rent = rent
        self.buy = buy
    }

    /// Why these can't be stored in a describe, or nil when they can.
    package var invalidReason: String? {
        guard GroupSettings.isRegion(region) else {
            return "a region is two capital letters"
        }
        if let link, !link.hasPrefix("https://") || link.utf8.count > MovieDetails.maxPathLength {
            return "a where-to-watch link is https and at most \(MovieDetails.maxPathLength) bytes"
        }
        for kind in [stream, rent, buy] {
            if kind.count > Self.maxPerKind { return "at most \(Self.maxPerKind) providers of each kind" }
            for provider in kind
            where provider.id < 0 || provider.name.isEmpty
                || provider.name.count > Self.maxNameLength
                || provider.logoPath.map({ !$0.hasPrefix("/") || $0.utf8.count > MovieDetails.maxPathLength }) == true
            {
                return "a provider has an id, a name of 1 to \(Self.maxNameLength) characters and a logo path"
            }
        }
        return nil
    }
}
