import PeerdCatalog
import PeerdModel
import PeerdWire

/// TMDB for every door (proto/CONTROL.md, `search`, `discover`, `similar`, `genres`, `show`,
/// `refresh`, `services`): through this daemon's token or a holder's, with the pages the shelf keeps,
/// and the list's movies as TMDB describes them.
struct CatalogDesk: Sendable {
    let replica: ReplicaService
    /// TMDB, when this daemon holds a token.
    let catalog: (any CatalogAccess)?
    /// Asks a peer that holds a token, when this daemon holds none.
    var asker: CatalogAsker? = nil
    /// TMDB's genres and list pages kept on disk (``CatalogShelf``).
    var shelf: CatalogShelf? = nil
    /// TMDB's language setting: its region is the services' default.
    var tmdbLanguage = CatalogSettings.defaultLanguage

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
        let response = await answer(page: page) { .search(text: trimmed, year: year, page: $0) }
        guard case .searchResults(let found) = response,
            let ceiling = await replica.snapshot.listDefinition?.maxCertification
        else { return response }
        return .searchResults(await underCeiling(found, ceiling: ceiling))
    }

    /// `discover`, `similar` and `genres`: from the shelf when it is fresh, else from TMDB.
    /// On a list with a ceiling (proto/PEER.md, "Ceilings"), only movies certified up to it in the
    /// group's region, unless the request sets a certification itself.
    func discover(_ list: DiscoverList, page: Int?) async -> ControlResponse {
        var list = list
        if list.filter.maxCertification == nil, let ceiling = await replica.snapshot.listDefinition?.maxCertification {
            list.filter.certificationCountry =
                await replica.groupSnapshot.list.settings?.region ?? TMDBResponses.region(of: tmdbLanguage)
            list.filter.maxCertification = ceiling
        }
        return await answer(page: page) { [list] in .discover(list, page: $0) }
    }

    func similar(_ movie: MovieID, page: Int?) async -> ControlResponse {
        await answer(page: page) { .similar(movie, page: $0) }
    }

    func genres() async -> ControlResponse { await answer(.genres) }

    private func answer(page: Int?, _ ask: (Int) -> CatalogQuery.Ask) async -> ControlResponse {
        let page = page ?? 1
        guard (1...500).contains(page) else { return .error(WireError(.badRequest, "a page is between 1 and 500")) }
        return await answer(ask(page))
    }

    /// What `ask` finds, as a response.
    private func answer(_ ask: CatalogQuery.Ask) async -> ControlResponse {
        switch await found(ask) {
        case .success(let (found, kept, stale)): Self.response(found, kept, stale: stale)
        case .failure(let error): .error(error)
        }
    }

    /// What `ask` finds, and when it was kept if it comes from the shelf (with why, if it is not
    /// fresh). A page the shelf keeps fresh asks nobody; one TMDB (or the holder) can't give now
    /// comes from the shelf, however old. An ask that can't be answered (a filter its list doesn't
    /// take) is refused here, before anyone is asked, whichever desk asks.
    func found(_ ask: CatalogQuery.Ask) async
        -> Result<(CatalogAnswer.Found, kept: CatalogShelf.Kept?, stale: String?), WireError>
    {
        if let reason = ask.invalidReason { return .failure(WireError(.badRequest, reason)) }
        let kept = await shelf?.kept(ask)
        let now = Wallclock.millis()
        if let kept, CatalogShelf.isFresh(kept, for: ask, now: now) { return .success((kept.found, kept, nil)) }
        switch await lookup(ask) {
        case .success(let found):
            // A page that can't be kept (a full disk) is still answered: it is only not kept.
            try? await shelf?.keep(found, for: ask, at: now)
            return .success((found, nil, nil))
        case .failure(let error):
            guard let kept else { return .failure(error) }
            return .success((kept.found, kept, error.message))
        }
    }

    /// TMDB through this daemon's token, or without one, through a peer that holds one
    /// (proto/PEER.md, "Catalog queries").
    private func lookup(_ ask: CatalogQuery.Ask) async -> Result<CatalogAnswer.Found, WireError> {
        if let catalog {
            do {
                return .success(try await catalog.lookup(ask))
            } catch {
                return .failure(WireError(.upstreamFailed, "\(error)"))
            }
        }
        guard let asker else { return .failure(WireError(.unavailable, "can't ask TMDB: \(Self.noToken)")) }
        return await asker.ask(ask)
    }

    private static func response(
        _ found: CatalogAnswer.Found,
        _ kept: CatalogShelf.Kept?,
        stale: String? = nil
    ) -> ControlResponse {
        switch found {
        case .search(let page): return .searchResults(page)
        case .movies(var page):
            (page.fetchedAt, page.stale) = (kept?.fetchedAt, stale)
            return .movies(page)
        case .genres(let genres): return .genres(GenresRecord(genres: genres, fetchedAt: kept?.fetchedAt, stale: stale))
        case .providers: return .error(WireError(.internal, "a region's services answer no control request"))
        case .certification: return .error(WireError(.internal, "a certification answers no control request"))
        }
    }

    func show(_ movie: MovieID) async -> ControlResponse {
        let snapshot = await replica.snapshot
        let row = snapshot.list.row(for: movie)
        let describe = snapshot.list.description(of: movie)
        let offList = row == nil ? snapshot.offList(movie) : nil
        guard row != nil || describe != nil || offList != nil else {
            return .error(
                WireError(.notListed, "movie \(movie) is not on the list, nobody marked it and nobody described it")
            )
        }
        let settings = snapshot.list.settings
        var details: DetailsRecord?
        if let found = describe?.details {
            let poster = await found.posterPath.asyncMap { await posterURL(for: $0) }
            details = DetailsRecord(found, posterURL: poster)
        }
        return .shown(
            ShownRecord(
                movie: row.map { MovieRecord($0, settings: settings) },
                details: details,
                describedBy: describe.map(DescribedByRecord.init),
                pending: details == nil ? await pendingReason(movie) : nil,
                offList: offList
            )
        )
    }

    func refresh(_ movie: MovieID?) async -> ControlResponse {
        guard let catalog else { return .error(WireError(.unavailable, "can't refresh: \(Self.noToken)")) }
        let movies: [MovieID]
        let snapshot = await replica.snapshot
        if let movie {
            guard snapshot.list.row(for: movie) != nil else {
                return .error(WireError(.notListed, "movie \(movie) is not on the list"))
            }
            movies = [movie]
        } else {
            movies = snapshot.list.listedMovies
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
