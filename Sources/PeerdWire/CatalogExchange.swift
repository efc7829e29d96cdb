package import PeerdModel

/// A question for TMDB that a peer without a token asks one that holds one (proto/PEER.md,
/// "Catalog queries"). `id` pairs it with its ``CatalogAnswer``; the asker picks it.
package struct CatalogQuery: Hashable, Sendable {
    package var id: UInt64
    package var ask: Ask

    package init(id: UInt64, ask: Ask) {
        self.id = id
        self.ask = ask
    }

    /// What is asked; each kind's page is 1-based. The same asks reach TMDB from this peer's own
    /// control socket, so they are one value for both.
    package enum Ask: Hashable, Sendable, CustomStringConvertible {
        /// One page of TMDB's search, optionally limited to a release year.
        case search(text: String, year: Int?, page: Int)
        /// One page of one of TMDB's lists.
        case discover(DiscoverList, page: Int)
        /// One page of TMDB's recommendations for a movie.
        case similar(MovieID, page: Int)
        /// TMDB's movie genres.
        case genres
        /// The streaming services TMDB knows in a region (`DE`), to name the group's by.
        case providers(region: String)
        /// The movie IMDb knows by `imdb` (`tt0133093`): TMDB's `/3/find`, for an import.
        case find(imdb: String)
        /// A movie's certification in a region and the region's order of certifications, for an add to a
        /// list with a ceiling.
        case certification(MovieID, region: String)
        /// A kind this peer doesn't know, kept so the holder answers it with `bad-request` and the
        /// session goes on: later versions add kinds.
        case unanswerable(kind: String, reason: String)

        package var kind: String {
            switch self {
            case .search: "search"
            case .discover: "discover"
            case .similar: "similar"
            case .genres: "genres"
            case .providers: "providers"
            case .find: "find"
            case .certification: "certification"
            case .unanswerable(let kind, _): kind
            }
        }

        /// Why this can't be asked of TMDB (answered with `bad-request`), or nil: an unknown kind,
        /// or a `discover` of a list this version doesn't know or with a filter out of bounds.
        package var invalidReason: String? {
            switch self {
            case .discover(let list, _): list.invalidReason
            case .providers(let region), .certification(_, let region):
                GroupSettings.isRegion(region) ? nil : "a region is two capital letters, like US or DE"
            case .find(let imdb): Self.isIMDbID(imdb) ? nil : "an IMDb id is tt and 7 to 10 digits, like tt0133093"
            case .unanswerable(_, let reason): reason
            case .search, .similar, .genres: nil
            }
        }

        /// Whether `text` is an IMDb title id: `tt` and 7 to 10 digits.
        package static func isIMDbID(_ text: String) -> Bool {
            let bytes = Array(text.utf8)
            return (9...12).contains(bytes.count) && bytes.starts(with: Array("tt".utf8))
                && bytes.dropFirst(2).allSatisfy { (0x30...0x39).contains($0) }
        }

        /// The page as a person would name it: "search for 'dune', page 2", "popular, page 1".
        package var description: String {
            switch self {
            case .search(let text, _, let page): "search for '\(text.prefix(200))', page \(page)"
            case .discover(let list, let page): "\(list), page \(page)"
            case .similar(let movie, let page): "movies like \(movie), page \(page)"
            case .genres: "the genres"
            case .providers(let region): "the streaming services in \(region.prefix(2))"
            case .find(let imdb): "the movie IMDb calls \(imdb.prefix(12))"
            case .certification(let movie, let region): "the certification of \(movie) in \(region.prefix(2))"
            case .unanswerable(let kind, _): "a query of kind '\(kind.prefix(40))'"
            }
        }
    }
}

/// The holder's answer to a ``CatalogQuery``: the result, or why there is none.
package struct CatalogAnswer: Hashable, Sendable {
    package var id: UInt64
    package var outcome: Result<Found, WireError>

    package init(id: UInt64, outcome: Result<Found, WireError>) {
        self.id = id
        self.outcome = outcome
    }

    /// What a query found: a page of movies (search, discover, similar), the genres, a region's
    /// streaming services, or a movie's certification.
    package enum Found: Hashable, Sendable {
        case search(SearchResultsRecord)
        case movies(SearchResultsRecord)
        case genres([GenreRecord])
        case providers([WatchProviders.Provider])
        case certification(CertificationRecord)
    }
}
