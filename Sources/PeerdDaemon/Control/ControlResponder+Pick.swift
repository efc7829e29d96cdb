import PeerdModel
import PeerdQR
import PeerdWeb
import PeerdWire

/// Picks of tonight's movie: opening one, votes and rankings, its state and its close
/// (proto/CONTROL.md, "pick").
extension ControlResponder {
    static let defaultFinalists = 5
    /// Cards each voter sees in a majority or unanimous pick unless the opener says: a deck a
    /// household goes through in a few minutes.
    static let defaultDeckSize = 12

    /// Opens a pick: its voters (named, or those connected now and this member), its deck (the
    /// most wanted of the list's candidates, or of a TMDB list), shuffled by the replica with the
    /// opening's id. While a pick is voting, this member joins it instead: a group has one at a time.
    func openPick(_ opening: PickOpening) async -> ControlResponse {
        if let voting = await replica.votingPick { return await joined(voting.id) }
        if let size = opening.deckSize, !(1...Pick.maxDeck).contains(size) {
            return .error(WireError(.badRequest, "a deck holds 1 to \(Pick.maxDeck) cards"))
        }
        let voters: [PeerID]
        switch await pickVoters(opening.with) {
        case .success(let chosen): voters = chosen
        case .failure(let error): return .error(error)
        }
        let candidates: [Movie]
        switch await deck(opening, voters: voters) {
        case .success(let movies): candidates = movies
        case .failure(let error): return .error(error)
        }
        guard !candidates.isEmpty else {
            return .error(WireError(.badRequest, "no movie is left for this pick: " + Self.emptyDeck(opening)))
        }
        let finalists = min(opening.finalists ?? Self.defaultFinalists, Pick.maxFinalists)
        let size = opening.mode == .ranked ? max(finalists, 1) : opening.deckSize ?? Self.defaultDeckSize
        let step = Pick.open(
            mode: opening.mode,
            deck: Array(candidates.prefix(size)),
            voters: voters,
            source: opening.deck
        )
        let response = await submit(step, on: Operation.groupMovie)
        guard case .pickState(var record) = response else { return response }
        record.candidates = candidates.count
        return .pickState(record)
    }

    /// The answer to a `pick` that found `id` voting: its state, joined.
    private func joined(_ id: OperationID) async -> ControlResponse {
        let response = await pickStatus(id)
        guard case .pickState(var record) = response else { return response }
        record.joined = true
        return .pickState(record)
    }

    /// A yes or no on `movie` (this member's next one when absent), or a ranking.
    func vote(pick id: OperationID?, movie: MovieID?, yes: Bool?, ranking: [MovieID]?) async -> ControlResponse {
        guard let state = await replica.pickState(id) else {
            return .error(WireError(.badRequest, "there is no pick to vote on; open one with `peerctl pick`"))
        }
        guard state.isOpen else { return .error(WireError(.badRequest, await Self.closed(state, replica: replica))) }
        if let ranking {
            guard yes == nil, movie == nil else { return .error(WireError(.badRequest, "a ranking goes alone")) }
            return await submit(Pick(action: .rank, pick: state.id, ranking: ranking), on: Operation.groupMovie)
        }
        guard let yes else { return .error(WireError(.badRequest, "a vote says yes (true) or no (false)")) }
        guard let voted = movie.map({ id in Movie(id: id) }) ?? state.tally.next(for: .member(info.identity)) else {
            return .error(
                WireError(.badRequest, "you have voted on every movie of this pick; name one to change a vote")
            )
        }
        return await submit(Pick(action: .vote, pick: state.id, yes: yes), on: voted)
    }

    func pickStatus(_ id: OperationID?) async -> ControlResponse {
        guard let state = await replica.pickState(id) else {
            return .error(WireError(.badRequest, "there is no pick yet; open one with `peerctl pick`"))
        }
        var record = await replica.pickRecord(state, for: info.identity)
        if state.isOpen, state.opener == info.identity, let guests {
            record.guests = Self.guestsRecord(await guests.link(for: state.id))
        }
        return .pickState(record)
    }

    /// The guest link as a URL and a QR code, or why there is none.
    private static func guestsRecord(_ link: Result<String, GuestDoorProblem>) -> PickGuestsRecord {
        switch link {
        case .success(let url): PickGuestsRecord(url: url, svg: QRCode(url)?.svg)
        case .failure(let problem): PickGuestsRecord(problem: problem.description)
        }
    }

    /// Closes a pick; one another member opened only with `force`: it is theirs to close.
    func closePick(_ id: OperationID?, force: Bool) async -> ControlResponse {
        guard let state = await replica.pickState(id) else { return .error(WireError(.badRequest, "there is no pick")) }
        guard state.isOpen else { return .error(WireError(.badRequest, await Self.closed(state, replica: replica))) }
        guard force || state.opener == info.identity else {
            let opener = await replica.memberName(state.opener)
            return .error(
                WireError(
                    .badRequest,
                    "this is \(opener)'s pick: \(opener) closes it, or close it anyway with "
                        + "`peerctl pick --close --force`"
                )
            )
        }
        return await submit(Pick(action: .close, pick: state.id), on: Operation.groupMovie)
    }

    private func submit(_ step: Pick, on movie: Movie) async -> ControlResponse {
        let made: Operation
        do {
            guard case .picked(let op) = try await replica.submit(.pick(movie, step), at: Wallclock.millis()) else {
                return .error(WireError(.internal, "a pick step made another kind of operation"))
            }
            made = op
        } catch ReplicaService.Failure.refused(.pickVoting(let voting, _)) {
            return await joined(voting)
        } catch {
            return .error(Self.wireError(error))
        }
        return await pickStatus(step.pick ?? made.id)
    }

    /// The members who vote: those `names` names and this one; or, when none are named, every
    /// member connected now and this one.
    private func pickVoters(_ names: [String]?) async -> Result<[PeerID], WireError> {
        guard let names else { return .success(Array(await directory.connectedPeers) + [info.identity]) }
        return await resolve(names).map { $0 + [info.identity] }
    }

    /// The candidates of `opening`'s deck, most wanted first for the list's.
    private func deck(_ opening: PickOpening, voters: [PeerID]) async -> Result<[Movie], WireError> {
        if let maxRuntime = opening.maxRuntime, !(1...600).contains(maxRuntime) {
            return .failure(WireError(.badRequest, "--max-runtime is 1 to 600 minutes"))
        }
        guard let source = opening.source else {
            return .failure(WireError(.badRequest, "a deck is \(DeckSource.accepted), not '\(opening.deck)'"))
        }
        guard source != .list else {
            return .success(
                await replica.pickCandidates(
                    voters: voters,
                    maxRuntime: opening.maxRuntime,
                    genre: opening.genre,
                    streaming: opening.streaming
                )
            )
        }
        return await tmdbDeck(opening, source, voters: voters)
    }

    /// The first page of a TMDB list, through this daemon's token or a holder's, less what the
    /// voters have seen or vetoed.
    private func tmdbDeck(
        _ opening: PickOpening,
        _ source: DeckSource,
        voters: [PeerID]
    ) async -> Result<[Movie], WireError> {
        guard opening.genre == nil, !opening.streaming else {
            return .failure(
                WireError(.badRequest, "genre and streaming narrow the list's deck; a TMDB deck by genre is genre:NAME")
            )
        }
        var list: DiscoverList
        switch source {
        case .list: return .failure(WireError(.internal, "the list's deck is not one of TMDB's"))
        case .popular: list = DiscoverList(.popular, filter: DiscoverFilter(maxRuntime: opening.maxRuntime))
        case .trending: list = DiscoverList(.trendingWeek, filter: DiscoverFilter(maxRuntime: opening.maxRuntime))
        case .genre(let named):
            let wanted = named.lowercased()
            guard case .genres(let genres) = await browse(.genres) else {
                return .failure(WireError(.unavailable, "TMDB's genres could not be had; try --deck list"))
            }
            guard let genre = genres.genres.first(where: { $0.name.lowercased() == wanted }) else {
                let known = genres.genres.map { $0.name.lowercased() }.joined(separator: ", ")
                return .failure(WireError(.badRequest, "TMDB has no genre '\(wanted)'; its genres: \(known)"))
            }
            list = DiscoverList(.popular, filter: DiscoverFilter(genre: genre.id, maxRuntime: opening.maxRuntime))
        }
        switch await browse(.discover(list, page: 1)) {
        case .movies(let page):
            var movies: [Movie] = []
            for result in page.results {
                guard let id = MovieID(result.movieId), await !replica.seenOrVetoed(id, by: voters) else { continue }
                movies.append(Movie(id: id, title: result.title, year: result.year))
            }
            return .success(movies)
        case .error(let error): return .failure(error)
        default: return .failure(WireError(.internal, "a discover answered with something else"))
        }
    }

    /// Why a closed pick takes no more steps, with its result.
    private static func closed(_ state: PickState, replica: ReplicaService) async -> String {
        let result: String
        switch state.tally.result {
        case .chosen(let movie):
            let title = await replica.row(for: movie.id)?.title ?? movie.title
            result =
                "its result stands: " + (title.map { "\($0) (\(movie.id.rawValue))" } ?? "movie \(movie.id.rawValue)")
        case .none, .pending: result = "it ended with no movie chosen"
        }
        return "the pick is closed; \(result). Open a new one with `peerctl pick`"
    }

    private static func emptyDeck(_ opening: PickOpening) -> String {
        guard opening.source == .list else { return "everything on TMDB's list was seen or vetoed by a voter" }
        return
            "everything on the list is seen or vetoed by a voter, or left out by the filters (`peerctl list --unseen`)"
    }
}
