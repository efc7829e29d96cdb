import PeerdModel
import PeerdWeb
import PeerdWire

/// Picks of tonight's movie: opening one, votes and rankings, its state and its close
/// (proto/CONTROL.md, "pick"; WEB.md, "Guests"). Every door asks here: the control socket and the
/// page for this daemon's member, the guest door for a guest. Each request reads one snapshot and
/// makes one write; the pick's rules are the model's (``Replica/pickStep(_:on:id:)``), and each
/// door says a ``Refusal`` in its own words.
struct PickDesk: Sendable {
    /// Who takes a step: this daemon's member, or a guest of a pick it opened.
    enum Voter: Hashable, Sendable {
        case member
        case guest(Pick.Guest)
    }

    /// Why a pick request made nothing.
    enum Refusal: Error, Sendable {
        /// A rule of the pick's (the model's).
        case rule(PickRefusal)
        /// No pick is named and the group has none.
        case noPick
        /// A close of another member's pick without `force`: theirs to close.
        case notYours(opener: String)
        /// A yes or no without a movie, from a voter who voted on every one.
        case votedAll
        /// The request itself is malformed.
        case badRequest(String)
        /// The replica could not make it (storage, shutting down).
        case failed(WireError)
    }

    static let defaultFinalists = 5
    /// Cards each voter sees in a majority or unanimous pick unless the opener says: a deck a
    /// household goes through in a few minutes.
    static let defaultDeckSize = 12

    let replica: ReplicaService
    let roster: MemberRoster
    /// The members connected now: a pick's voters when the opener names none.
    let connected: @Sendable () async -> Set<PeerID>
    /// TMDB's lists, for a deck of popular, trending or one genre's movies.
    var catalog: CatalogDesk? = nil
    /// The guest door, for the opener's guest link; nil with `--no-guests`, and on the door itself.
    var guests: (any GuestLinks)? = nil

    /// A step made: the pick it was about, and the replica after it.
    struct Stepped: Sendable {
        var pick: OperationID
        var after: Replica
    }

    /// A yes or no on `movie` (the voter's next card when nil), or a ranking.
    func vote(
        _ pick: OperationID?,
        movie: MovieID?,
        yes: Bool?,
        ranking: [MovieID]? = nil,
        by voter: Voter
    ) async -> Result<Stepped, Refusal> {
        let snapshot = await replica.snapshot
        guard let state = snapshot.pickState(pick) else { return .failure(.noPick) }
        if let ranking {
            guard yes == nil, movie == nil, voter == .member else {
                return .failure(.badRequest("a ranking goes alone"))
            }
            return await step(
                Pick(action: .rank, pick: state.id, ranking: ranking),
                on: Operation.groupMovie,
                of: state.id
            )
        }
        guard let yes else { return .failure(.badRequest("a vote says yes (true) or no (false)")) }
        let (guest, card): (Pick.Guest?, Movie?)
        switch voter {
        case .member: (guest, card) = (nil, movie.map { Movie(id: $0) } ?? state.tally.next(for: .member(roster.me)))
        case .guest(let who):
            (guest, card) = (who, movie.map { id in state.deck.first { $0.id == id } ?? Movie(id: id) })
        }
        guard let card else { return .failure(.votedAll) }
        return await step(Pick(action: .vote, pick: state.id, yes: yes, guest: guest), on: card, of: state.id)
    }

    /// Closes a pick; one another member opened only with `force`.
    func close(_ pick: OperationID?, force: Bool) async -> Result<Stepped, Refusal> {
        let snapshot = await replica.snapshot
        guard let state = snapshot.pickState(pick) else { return .failure(.noPick) }
        // A closed pick is the model's to refuse (``PickRefusal/closed``), whoever opened it.
        guard force || state.opener == roster.me || !state.isOpen else {
            return .failure(.notYours(opener: snapshot.memberName(state.opener)))
        }
        return await step(Pick(action: .close, pick: state.id), on: Operation.groupMovie, of: state.id)
    }

    /// Makes `step` (of the pick it names) on `movie`: one write.
    private func step(_ step: Pick, on movie: Movie, of pick: OperationID) async -> Result<Stepped, Refusal> {
        do {
            let after = try await replica.write([.pick(movie, step)], at: Wallclock.millis()).after
            return .success(Stepped(pick: pick, after: after))
        } catch ReplicaService.Failure.refused(.pick(let rule)) {
            return .failure(.rule(rule))
        } catch {
            return .failure(.failed(ReplicaService.wireError(error)))
        }
    }
}
