import PeerdModel
import PeerdWire

/// `search`, `show` and `refresh` (proto/CONTROL.md): the list's movies as TMDB describes them.
extension ControlResponder {
    static let noToken =
        "this peerd has no TMDB token; put one in ~/.config/peerd/tmdb.token (chmod 600) or set TMDB_TOKEN, "
        + "then restart peerd"

    func search(_ query: String, year: Int?, page: Int?) async -> ControlResponse {
        let trimmed = String(query.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        guard (1...200).contains(trimmed.count) else {
            return .error(WireError(.badRequest, "a search is 1 to 200 characters"))
        }
        if let year, !(1870...9999).contains(year) {
            return .error(WireError(.badRequest, "a year is between 1870 and 9999"))
        }
        let page = page ?? 1
        guard (1...500).contains(page) else { return .error(WireError(.badRequest, "a page is between 1 and 500")) }
        guard let catalog else { return await askPeers(.search(text: trimmed, year: year, page: page)) }
        do {
            return .searchResults(try await catalog.search(trimmed, year: year, page: page))
        } catch {
            return .error(WireError(.upstreamFailed, "\(error)"))
        }
    }

    /// Without a token: a peer that holds one answers (proto/PEER.md, "Catalog queries").
    private func askPeers(_ ask: CatalogQuery.Ask) async -> ControlResponse {
        guard let asker else { return .error(WireError(.unavailable, "can't search: \(Self.noToken)")) }
        switch await asker.ask(ask) {
        case .success(.search(let page)): return .searchResults(page)
        case .failure(let error): return .error(error)
        }
    }

    func show(_ movie: MovieID) async -> ControlResponse {
        let row = await replica.row(for: movie)
        let describe = await replica.description(of: movie)
        guard row != nil || describe != nil else {
            return .error(WireError(.notListed, "movie \(movie) is not on the list and nobody described it"))
        }
        var details: DetailsRecord?
        if let found = describe?.details {
            let poster = await found.posterPath.asyncMap { await posterURL(for: $0) }
            details = DetailsRecord(found, posterURL: poster)
        }
        return .shown(
            ShownRecord(
                movie: row.map(MovieRecord.init),
                details: details,
                describedBy: describe.map(DescribedByRecord.init),
                pending: details == nil ? await pendingReason(movie) : nil
            )
        )
    }

    func refresh(_ movie: MovieID?) async -> ControlResponse {
        guard let catalog else { return .error(WireError(.unavailable, "can't refresh: \(Self.noToken)")) }
        let movies: [MovieID]
        if let movie {
            guard await replica.row(for: movie) != nil else {
                return .error(WireError(.notListed, "movie \(movie) is not on the list"))
            }
            movies = [movie]
        } else {
            movies = await replica.listedMovies()
        }
        return .refreshing(movies: await catalog.refresh(movies))
    }

    private func posterURL(for path: String) async -> String {
        await catalog?.posterURL(for: path) ?? Posters.url(for: path)
    }

    private func pendingReason(_ movie: MovieID) async -> String {
        guard let catalog else { return "waiting for a peer with a TMDB token to describe it (this peerd has none)" }
        return await catalog.pendingReason(movie) ?? "waiting for its turn to be fetched"
    }
}

extension Optional {
    /// `map` with an async transform.
    func asyncMap<Mapped>(_ transform: (Wrapped) async -> Mapped) async -> Mapped? {
        guard let self else { return nil }
        return await transform(self)
    }
}
