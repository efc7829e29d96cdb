import PeerdModel
import PeerdWire

/// A pick's deck: the list's candidates, most wanted first, or the first page of a TMDB list,
/// less what the voters have seen or vetoed.
extension PickDesk {
    func deck(_ opening: PickOpening, voters: [PeerID], in snapshot: Replica) async -> Result<[Movie], WireError> {
        if let maxRuntime = opening.maxRuntime, !(1...600).contains(maxRuntime) {
            return .failure(WireError(.badRequest, "--max-runtime is 1 to 600 minutes"))
        }
        guard let source = opening.source else {
            return .failure(WireError(.badRequest, "a deck is \(DeckSource.accepted), not '\(opening.deck)'"))
        }
        guard source != .list else {
            return .success(
                snapshot.pickCandidates(
                    voters: voters,
                    maxRuntime: opening.maxRuntime,
                    genre: opening.genre,
                    streaming: opening.streaming
                )
            )
        }
        guard opening.genre == nil, !opening.streaming else {
            return .failure(
                WireError(.badRequest, "genre and streaming narrow the list's deck; a TMDB deck by genre is genre:NAME")
            )
        }
        switch await tmdbList(source, maxRuntime: opening.maxRuntime) {
        case .success(let list): return await tmdbDeck(list, voters: voters, in: snapshot)
        case .failure(let error): return .failure(error)
        }
    }

    /// The TMDB list a deck source names.
    private func tmdbList(_ source: DeckSource, maxRuntime: Int?) async -> Result<DiscoverList, WireError> {
        switch source {
        case .list: return .failure(WireError(.internal, "the list's deck is not one of TMDB's"))
        case .popular: return .success(DiscoverList(.popular, filter: DiscoverFilter(maxRuntime: maxRuntime)))
        case .trending: return .success(DiscoverList(.trendingWeek, filter: DiscoverFilter(maxRuntime: maxRuntime)))
        case .genre(let named):
            let wanted = named.lowercased()
            guard let catalog, case .success((.genres(let genres), _, _)) = await catalog.found(.genres) else {
                return .failure(WireError(.unavailable, "TMDB's genres could not be had; try --deck list"))
            }
            guard let genre = genres.first(where: { $0.name.lowercased() == wanted }) else {
                let known = genres.map { $0.name.lowercased() }.joined(separator: ", ")
                return .failure(WireError(.badRequest, "TMDB has no genre '\(wanted)'; its genres: \(known)"))
            }
            return .success(DiscoverList(.popular, filter: DiscoverFilter(genre: genre.id, maxRuntime: maxRuntime)))
        }
    }

    /// The first page of `list`, through this daemon's token or a holder's, less what the voters
    /// have seen or vetoed.
    private func tmdbDeck(_ list: DiscoverList, voters: [PeerID], in snapshot: Replica) async
        -> Result<[Movie], WireError>
    {
        guard let catalog else { return .failure(WireError(.unavailable, "this desk asks no catalog")) }
        switch await catalog.found(.discover(list, page: 1)) {
        case .success((.movies(let page), _, _)):
            return .success(
                page.results.compactMap { result in
                    guard let id = MovieID(result.movieId), !snapshot.seenOrVetoed(id, by: voters) else { return nil }
                    return Movie(id: id, title: result.title, year: result.year)
                }
            )
        case .success: return .failure(WireError(.internal, "a discover answered with something else"))
        case .failure(let error): return .failure(error)
        }
    }
}
