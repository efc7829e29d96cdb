package import PeerdWire

extension TMDBClient {
    /// What `ask` finds on TMDB: one request, parsed. A `search` is one page of `/3/search/movie`,
    /// a `discover` one page of a list, a `similar` one page of recommendations. A `certification` is two: the
    /// movie's release dates and the orders (a holder's ``QueryDesk`` keeps the answer a while).
    package func lookup(_ ask: CatalogQuery.Ask, for asker: RequestFor = .us) async throws(CatalogError)
        -> CatalogAnswer.Found
    {
        if let reason = ask.invalidReason { throw .unanswerable(kind: ask.kind, reason: reason) }
        switch ask {
        case .search(let text, let year, let page):
            return .search(try await search(text, year: year, page: page, for: asker))
        case .discover(let list, let page):
            return .movies(try await moviePage(.list(list, page: page), named: list.description, for: asker))
        case .similar(let movie, let page):
            let request = TMDBRequest.recommendations(movie, page: page)
            return .movies(try await moviePage(request, named: "movies like \(movie)", for: asker))
        case .genres:
            let body = try await fetch(.genres, for: asker)
            return .genres(try Self.parsing(.genres) { () throws(CatalogError) in try TMDBResponses.genres(body) })
        case .providers(let region):
            let body = try await fetch(.providers(region: region), for: asker)
            return .providers(
                try Self.parsing(.providers(region: region)) { () throws(CatalogError) in
                    try TMDBResponses.regionProviders(body, region: region)
                }
            )
        case .find(let imdb):
            let body = try await fetch(.find(imdb: imdb), for: asker)
            return .movies(
                try Self.parsing(.find(imdb: imdb)) { () throws(CatalogError) in
                    try TMDBResponses.foundPage(body, imdb: imdb)
                }
            )
        case .certification(let movie, let region):
            let certification = try await certifications(of: movie, for: asker).certification(in: region)
            let order = try await certificationOrders(for: asker).order(in: region)
            return .certification(
                CertificationRecord(region: region, certification: certification, order: order.ranked)
            )
        case .unanswerable(let kind, let reason):  // refused above
            throw .unanswerable(kind: kind, reason: reason)
        }
    }

    private func moviePage(_ request: TMDBRequest, named name: String, for asker: RequestFor)
        async throws(CatalogError) -> SearchResultsRecord
    {
        let body = try await fetch(request, for: asker)
        return try Self.parsing(request) { () throws(CatalogError) in
            try TMDBResponses.searchPage(body, query: name)
        }
    }
}
