package import PeerdModel

/// One page of TMDB's search results (through the daemon's token or a holder's).
package struct SearchRequest: ControlRequestBody {
    package static let tag = "search"
    package var query: String
    package var year: Int?
    package var page: Int?

    package init(query: String, year: Int? = nil, page: Int? = nil) {
        self.query = query
        self.year = year
        self.page = page
    }
}

/// One page of one of TMDB's lists; the list's fields sit beside `page`.
package struct DiscoverRequest: ControlRequestBody {
    package static let tag = "discover"
    package var list: DiscoverList
    package var page: Int?

    package init(_ list: DiscoverList, page: Int? = nil) {
        self.list = list
        self.page = page
    }

    private enum CodingKeys: String, CodingKey { case page }

    package init(from decoder: any Decoder) throws {
        list = try DiscoverList(from: decoder)
        page = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Int.self, forKey: .page)
    }

    package func encode(to encoder: any Encoder) throws {
        try list.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(page, forKey: .page)
    }
}

/// One page of TMDB's recommendations for a movie.
package struct SimilarRequest: ControlRequestBody {
    package static let tag = "similar"
    package var movie: MovieID
    package var page: Int?

    package init(movie: MovieID, page: Int? = nil) {
        self.movie = movie
        self.page = page
    }
}

/// TMDB's movie genres.
package struct GenresRequest: ControlRequestBody {
    package static let tag = "genres"
    package static let takesList = false
    package init() {}
}

/// The group's region and services; with a `region` or `services` (names or TMDB ids), sets them
/// (proto/CONTROL.md, "services").
package struct ServicesRequest: ControlRequestBody {
    package static let tag = "services"
    package static let takesList = false
    package var region: String?
    package var services: [String]?

    package init(region: String? = nil, services: [String]? = nil) {
        self.region = region
        self.services = services
    }
}

/// Everything known about one movie: row, details, where they came from or why they are pending.
package struct ShowRequest: ControlRequestBody {
    package static let tag = "show"
    package var movie: MovieID

    package init(movie: MovieID) { self.movie = movie }
}

/// Fetch details again: of one movie, or of every listed one.
package struct RefreshRequest: ControlRequestBody {
    package static let tag = "refresh"
    package var movie: MovieID?

    package init(movie: MovieID? = nil) { self.movie = movie }
}

/// Rows of a file being imported (peerctl reads the file): the batch is the request.
extension ImportBatch: ControlRequestBody {
    package static let tag = "import"
    package static let allowedFromPage = false
}
