import PeerdModel
import PeerdWire

/// Opening a pick: its voters (named, or those connected now and this member) and its deck (the
/// most wanted of the list's candidates, or of a TMDB list), shuffled by the replica with the
/// opening's id. While a pick is voting, the opener joins it instead: a group has one at a time.
extension PickDesk {
    /// What an opening came to: a new pick, or the one voting that this member joined.
    enum Opened: Sendable {
        case opened(PickState, candidates: Int, after: Replica)
        case joined(PickState, after: Replica)
    }

    func open(_ opening: PickOpening) async -> Result<Opened, Refusal> {
        let snapshot = await replica.snapshot
        if let voting = snapshot.list.picks.voting.first { return .success(.joined(voting, after: snapshot)) }
        if let size = opening.deckSize, !(1...Pick.maxDeck).contains(size) {
            return .failure(.badRequest("a deck holds 1 to \(Pick.maxDeck) cards"))
        }
        let voters: [PeerID]
        switch await pickVoters(opening.with, in: snapshot) {
        case .success(let chosen): voters = chosen
        case .failure(let error): return .failure(.failed(error))
        }
        let candidates: [Movie]
        switch await deck(opening, voters: voters, in: snapshot) {
        case .success(let movies): candidates = movies
        case .failure(let error): return .failure(.failed(error))
        }
        guard !candidates.isEmpty else {
            return .failure(.badRequest("no movie is left for this pick: " + Self.emptyDeck(opening)))
        }
        let finalists = min(opening.finalists ?? Self.defaultFinalists, Pick.maxFinalists)
        let size = opening.mode == .ranked ? max(finalists, 1) : opening.deckSize ?? Self.defaultDeckSize
        let opener = Pick.open(
            mode: opening.mode,
            deck: Array(candidates.prefix(size)),
            voters: voters,
            source: opening.deck
        )
        do {
            let written = try await replica.write([.pick(Operation.groupMovie, opener)], at: Wallclock.millis())
            guard case .picked(let op) = written.made[0], let state = written.after.list.picks.pick(op.id) else {
                return .failure(.failed(WireError(.internal, "a pick's opening made another kind of operation")))
            }
            return .success(.opened(state, candidates: candidates.count, after: written.after))
        } catch ReplicaService.Failure.refused(.pick(.voting(let voting, _))) {
            // Another member's opening committed first: join theirs.
            let now = await replica.snapshot
            guard let state = now.list.picks.pick(voting) else { return .failure(.rule(.noSuchPick(voting))) }
            return .success(.joined(state, after: now))
        } catch ReplicaService.Failure.refused(.pick(let rule)) {
            return .failure(.rule(rule))
        } catch {
            return .failure(.failed(ReplicaService.wireError(error)))
        }
    }

    /// The members who vote: those `names` names and this one; or, when none are named, every
    /// member connected now and this one.
    private func pickVoters(_ names: [String]?, in snapshot: Replica) async -> Result<[PeerID], WireError> {
        guard let names else { return .success(Array(await connected()) + [roster.me]) }
        return await roster.resolve(names, in: snapshot).map { $0 + [roster.me] }
    }

    private static func emptyDeck(_ opening: PickOpening) -> String {
        guard opening.source == .list else { return "everything on TMDB's list was seen or vetoed by a voter" }
        return
            "everything on the list is seen or vetoed by a voter, or left out by the filters (`peerctl list --unseen`)"
    }
}
