import PeerdModel
import PeerdWire

/// The pick's refusals in the control protocol's words (`peerctl` and the page show them as they are).
extension PickRefusal {
    /// The words, without what only a snapshot knows (``PickDesk/words(for:in:)`` adds a closed
    /// pick's result).
    var message: String {
        switch self {
        case .noSuchPick: "there is no such pick; `peerctl pick --status` shows the open one"
        case .closed: "that pick is closed; its result stands (`peerctl pick --status`)"
        case .notInDeck(let movie): "movie \(movie.rawValue) is not in this pick's deck"
        case .takesRanking: "a ranked pick takes a ranking of its finalists, best first (`peerctl vote --rank …`)"
        case .takesVotes(let mode): "a \(mode.rawValue) pick takes yes or no on each movie, not a ranking"
        case .guestsFull: "this pick already has \(Pick.maxGuests) guests voting, as many as it takes"
        case .voting(_, let opener): "\(opener)'s pick is still voting; join it with `peerctl pick`, or close it first"
        }
    }
}

extension PickDesk {
    /// `refusal` as the control protocol says it, with `snapshot`'s titles and names.
    static func words(for refusal: Refusal, in snapshot: Replica, asking: String) -> WireError {
        switch refusal {
        case .rule(.closed(let id)):
            guard let state = snapshot.list.picks.pick(id) else {
                return WireError(.badRequest, PickRefusal.closed(id).message)
            }
            return WireError(.badRequest, closed(state, in: snapshot))
        case .rule(let rule): return WireError(.badRequest, rule.message)
        case .noPick: return WireError(.badRequest, asking)
        case .notYours(let opener):
            return WireError(
                .badRequest,
                "this is \(opener)'s pick: \(opener) closes it, or close it anyway with `peerctl pick --close --force`"
            )
        case .votedAll:
            return WireError(.badRequest, "you have voted on every movie of this pick; name one to change a vote")
        case .badRequest(let reason): return WireError(.badRequest, reason)
        case .failed(let error): return error
        }
    }

    /// Why a closed pick takes no more steps, with its result.
    static func closed(_ state: PickState, in snapshot: Replica) -> String {
        let result: String
        switch state.tally.result {
        case .chosen(let movie):
            let title = snapshot.list.row(for: movie.id)?.title ?? movie.title
            result =
                "its result stands: " + (title.map { "\($0) (\(movie.id.rawValue))" } ?? "movie \(movie.id.rawValue)")
        case .none, .pending: result = "it ended with no movie chosen"
        }
        return "the pick is closed; \(result). Open a new one with `peerctl pick`"
    }
}
