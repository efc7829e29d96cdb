import PeerdModel

extension CatalogQuery: Codable {
    enum CodingKeys: String, CodingKey {
        case id, kind, text, year, page, movie, region, imdb
    }

    /// The longest search text a query carries, as `peerctl search` allows.
    package static let maxTextLength = 200

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(UInt64.self, forKey: .id)
        let kind = try c.decode(String.self, forKey: .kind)
        let page = try c.decodeIfPresent(Int.self, forKey: .page) ?? 1
        guard (1...500).contains(page) else { throw WireError(.malformedFrame, "a query's page is 1 to 500") }
        switch kind {
        case "search":
            let text = try c.decode(String.self, forKey: .text)
            guard (1...Self.maxTextLength).contains(text.count) else {
                throw WireError(.malformedFrame, "a search query is 1 to 200 characters, its page 1 to 500")
            }
            ask = .search(text: text, year: try c.decodeIfPresent(Int.self, forKey: .year), page: page)
        case "discover": ask = .discover(try DiscoverList(from: decoder), page: page)
        case "similar": ask = .similar(try c.decode(MovieID.self, forKey: .movie), page: page)
        case "genres": ask = .genres
        case "providers": ask = .providers(region: try c.decode(String.self, forKey: .region))
        case "find": ask = .find(imdb: String(try c.decode(String.self, forKey: .imdb).prefix(16)))
        case "certification":
            let movie = try c.decode(MovieID.self, forKey: .movie)
            ask = .certification(movie, region: String(try c.decode(String.self, forKey: .region).prefix(8)))
        default: ask = .unanswerable(kind: kind, reason: "unknown query kind '\(kind.prefix(40))'")
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(ask.kind, forKey: .kind)
        switch ask {
        case .search(let text, let year, let page):
            try c.encode(text, forKey: .text)
            try c.encodeIfPresent(year, forKey: .year)
            try c.encode(page, forKey: .page)
        case .discover(let list, let page):
            try list.encode(to: encoder)
            try c.encode(page, forKey: .page)
        case .similar(let movie, let page):
            try c.encode(movie, forKey: .movie)
            try c.encode(page, forKey: .page)
        case .providers(let region): try c.encode(region, forKey: .region)
        case .find(let imdb): try c.encode(imdb, forKey: .imdb)
        case .certification(let movie, let region):
            try c.encode(movie, forKey: .movie)
            try c.encode(region, forKey: .region)
        case .genres, .unanswerable: break
        }
    }
}

extension CatalogAnswer: Codable {
    enum CodingKeys: String, CodingKey {
        case id, search, movies, genres, providers, certification, error
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(UInt64.self, forKey: .id)
        if let error = try c.decodeIfPresent(WireError.self, forKey: .error) {
            outcome = .failure(error)
        } else if let page = try c.decodeIfPresent(SearchResultsRecord.self, forKey: .search) {
            outcome = .success(.search(page))
        } else if let page = try c.decodeIfPresent(SearchResultsRecord.self, forKey: .movies) {
            outcome = .success(.movies(page))
        } else if let genres = try c.decodeIfPresent([GenreRecord].self, forKey: .genres) {
            outcome = .success(.genres(genres))
        } else if let providers = try c.decodeIfPresent([WatchProviders.Provider].self, forKey: .providers) {
            outcome = .success(.providers(providers))
        } else if let record = try c.decodeIfPresent(CertificationRecord.self, forKey: .certification) {
            outcome = .success(.certification(record))
        } else {
            throw WireError(.malformedFrame, "an 'answer' holds a result or an 'error'")
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        switch outcome {
        case .success(.search(let page)): try c.encode(page, forKey: .search)
        case .success(.movies(let page)): try c.encode(page, forKey: .movies)
        case .success(.genres(let genres)): try c.encode(genres, forKey: .genres)
        case .success(.providers(let providers)): try c.encode(providers, forKey: .providers)
        case .success(.certification(let record)): try c.encode(record, forKey: .certification)
        case .failure(let error): try c.encode(error, forKey: .error)
        }
    }
}
