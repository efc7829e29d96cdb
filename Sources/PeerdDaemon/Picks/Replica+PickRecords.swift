import PeerdModel
import PeerdWire

/// Picks as the control protocol and the page show them, made from a snapshot of the replica
/// (the pick's operations, the list's details, the members' names) outside the commit actor.
extension Replica {
    /// The pick `id`; else the group's current one (``Picks/current``).
    func pickState(_ id: OperationID?) -> PickState? {
        let picks = list.picks
        if let id { return picks.pick(id) }
        return picks.current
    }

    /// `peer`'s name as the group knows it.
    func memberName(_ peer: PeerID) -> String { list.names.name(of: peer) }

    /// The movies of the list a pick of `voters` may offer (``PickDeck/candidates``), most wanted
    /// first (a ranked pick's finalists are the first few).
    func pickCandidates(voters: [PeerID], maxRuntime: Int?, genre: String?, streaming: Bool) -> [Movie] {
        PickDeck.candidates(
            in: list,
            voters: voters,
            maxRuntime: maxRuntime,
            genre: genre,
            streaming: streaming
        )
        .enumerated().sorted {
            ($1.element.marks.wantedBy.count, $0.offset) < ($0.element.marks.wantedBy.count, $1.offset)
        }
        .map { Movie(id: $0.element.movie.id, title: $0.element.title, year: $0.element.year) }
    }

    /// Whether any of `voters` has seen or vetoed `movie`: a TMDB deck leaves those out too.
    func seenOrVetoed(_ movie: MovieID, by voters: [PeerID]) -> Bool {
        let marks = list.marks
        return marks.anyone(in: voters, has: .seen, on: movie) || marks.anyone(in: voters, has: .veto, on: movie)
    }

    /// A movie of a pick as its card shows it: the list's title and details, else the deck's.
    func pickCard(_ movie: Movie, yeses: Int?) -> PickMovieRecord {
        let row = list.row(for: movie.id)
        let details = row?.details ?? list.description(of: movie.id)?.details
        return PickMovieRecord(
            movieId: movie.id.rawValue,
            title: row?.title ?? details?.title ?? movie.title,
            year: row?.year ?? details?.year ?? movie.year,
            posterPath: details?.posterPath,
            runtime: details?.runtime,
            overview: details?.overview,
            wantedBy: row?.marks.wantedBy.map(\.name) ?? [],
            yeses: yeses
        )
    }

    /// `state` as a record, for the member `me`.
    func pickRecord(_ state: PickState, for me: PeerID) -> PickRecord {
        let tally = state.tally
        let names = list.names
        let outcome = tally.result
        let ended = outcome != .pending || !tally.isOpen
        func card(_ movie: Movie) -> PickMovieRecord {
            pickCard(movie, yeses: ended ? tally.yeses(for: movie.id) : nil)
        }
        let voters = tally.voters.map { voter in
            switch voter {
            case .member(let peer):
                PickVoterRecord(name: names.name(of: peer), peer: peer, guest: false, voted: tally.progress(of: voter))
            case .guest(_, let name):
                PickVoterRecord(name: name, peer: nil, guest: true, voted: tally.progress(of: voter))
            }
        }
        let (word, result): (String, Movie?) =
            switch outcome {
            case .pending: ("voting", nil)
            case .chosen(let movie): ("chosen", movie)
            case .none: ("none", nil)
            }
        let others = list.picks.voting.filter { $0.id != state.id }.map { other in
            PickBriefRecord(pick: other.id, openedBy: names.name(of: other.opener), openedAt: other.opening.at)
        }
        return PickRecord(
            pick: state.id,
            mode: state.mode,
            source: state.source,
            openedBy: names.name(of: state.opener),
            openedAt: state.opening.at,
            open: tally.isOpen,
            deck: state.deck.map(card),
            voters: voters,
            outcome: word,
            result: result.map(card),
            next: tally.isOpen && outcome == .pending && state.mode != .ranked
                ? tally.next(for: .member(me)).map(card) : nil,
            others: others.isEmpty ? nil : others
        )
    }
}
