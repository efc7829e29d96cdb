package import PeerdModel
package import PeerdWire

/// One kind of request to TMDB's API v3: its path, its query and how messages name it.
package enum TMDBRequest: Hashable, Sendable, CustomStringConvertible {
    /// `GET /3/movie/{id}`, with where to watch it and its release dates appended.
    case details(MovieID)
    /// `GET /3/movie/{id}/release_dates`: its certifications, for a movie whose details are cached without them.
    case releaseDates(MovieID)
    /// `GET /3/movie/{id}/watch/providers`: where to watch it, in every region (a news check).
    case watchProviders(MovieID)
    /// `GET /3/certification/movie/list`: how each country ranks its certifications.
    case certifications
    /// `GET /3/search/movie`: one page of results.
    case search(query: String, year: Int?, page: Int)
    /// `GET /3/configuration`: where the images are.
    case configuration
    /// One page of a list: `/3/movie/popular` and the like, or `/3/discover/movie` when filtered.
    case list(DiscoverList, page: Int)
    /// `GET /3/movie/{id}/recommendations`: one page.
    case recommendations(MovieID, page: Int)
    /// `GET /3/genre/movie/list`.
    case genres
    /// `GET /3/watch/providers/movie`: the services TMDB knows in a region.
    case providers(region: String)
    /// `/3/find/{imdb}?external_source=imdb_id`: what TMDB has under an IMDb id.
    case find(imdb: String)

    package var description: String {
        switch self {
        case .details(let movie): return "TMDB details of movie \(movie)"
        case .releaseDates(let movie): return "TMDB's release dates of movie \(movie)"
        case .watchProviders(let movie): return "TMDB's where-to-watch of movie \(movie)"
        case .certifications: return "TMDB's certifications"
        case .search(let query, _, let page): return "TMDB search for '\(query.prefix(200))', page \(page)"
        case .configuration: return "TMDB configuration"
        case .list(let list, let page): return "TMDB's \(list), page \(page)"
        case .recommendations(let movie, let page): return "TMDB's movies like \(movie), page \(page)"
        case .genres: return "TMDB's genres"
        case .providers(let region): return "TMDB's streaming services in \(region)"
        case .find(let imdb): return "TMDB's movie for IMDb's \(imdb)"
        }
    }

    var path: String {
        switch self {
        case .details(let movie): return "/3/movie/\(movie.rawValue)"
        case .releaseDates(let movie): return "/3/movie/\(movie.rawValue)/release_dates"
        case .watchProviders(let movie): return "/3/movie/\(movie.rawValue)/watch/providers"
        case .certifications: return "/3/certification/movie/list"
        case .search: return "/3/search/movie"
        case .configuration: return "/3/configuration"
        case .list(let list, _): return Self.path(of: list)
        case .recommendations(let movie, _): return "/3/movie/\(movie.rawValue)/recommendations"
        case .genres: return "/3/genre/movie/list"
        case .providers: return "/3/watch/providers/movie"
        case .find(let imdb): return "/3/find/\(imdb)"
        }
    }

    private static func path(of list: DiscoverList) -> String {
        guard list.filter.isEmpty else { return "/3/discover/movie" }
        switch list.kind {
        case .popular: return "/3/movie/popular"
        case .topRated: return "/3/movie/top_rated"
        case .upcoming: return "/3/movie/upcoming"
        case .nowPlaying: return "/3/movie/now_playing"
        case .trendingDay: return "/3/trending/movie/day"
        case .trendingWeek: return "/3/trending/movie/week"
        }
    }

    /// `/3/discover/movie`'s query for a filtered list. Sorted by rating, TMDB would lead with
    /// movies a handful of people voted 10; like TMDB's own top-rated list, it then asks for at
    /// least 200 votes.
    private static func discoverQuery(_ list: DiscoverList) -> [(name: String, value: String)] {
        let filter = list.filter
        var items: [(name: String, value: String)] = [
            ("sort_by", list.kind == .topRated ? "vote_average.desc" : "popularity.desc")
        ]
        if list.kind == .topRated { items.append(("vote_count.gte", "200")) }
        if let genre = filter.genre { items.append(("with_genres", "\(genre)")) }
        if let year = filter.year { items.append(("primary_release_year", "\(year)")) }
        if let runtime = filter.maxRuntime { items.append(("with_runtime.lte", "\(runtime)")) }
        if let rating = filter.minRating { items.append(("vote_average.gte", "\(rating)")) }
        if let country = filter.certificationCountry, let certification = filter.maxCertification {
            items += [("certification_country", country), ("certification.lte", certification)]
        }
        return items
    }

    /// The query items, without the credential.
    func query(language: String) -> [(name: String, value: String)] {
        switch self {
        case .details:
            return [("language", language), ("append_to_response", "watch/providers,release_dates")]
        case .search(let query, let year, let page):
            var items = [("query", query), ("include_adult", "false"), ("language", language), ("page", "\(page)")]
            if let year { items.append(("year", "\(year)")) }
            return items
        case .configuration, .releaseDates, .certifications, .watchProviders:
            return []
        case .list(let list, let page):
            let filters = list.filter.isEmpty ? [] : Self.discoverQuery(list)
            return [("include_adult", "false"), ("language", language), ("page", "\(page)")] + filters
        case .recommendations(_, let page):
            return [("language", language), ("page", "\(page)")]
        case .genres:
            return [("language", language)]
        case .providers(let region):
            return [("language", language), ("watch_region", region)]
        case .find:
            return [("external_source", "imdb_id"), ("language", language)]
        }
    }

    /// `path?name=value&…`, each name and value percent-encoded (RFC 3986: all but unreserved bytes).
    func target(language: String, extra: [(name: String, value: String)] = []) -> String {
        let items = query(language: language) + extra
        guard !items.isEmpty else { return path }
        return path + "?"
            + items.map { "\(Self.percentEncoded($0.name))=\(Self.percentEncoded($0.value))" }
            .joined(separator: "&")
    }

    static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                encoded += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 0xf)])"
            }
        }
        return encoded
    }
}
