import PeerdModel
package import PeerdWire

extension ReplicaService.Failure {
    /// What a peer or `peerctl` is told: the one mapping of the replica's failures to error codes.
    package var wireError: WireError {
        switch self {
        case .refused(.notListed(let id)): WireError(.notListed, "movie \(id) is not on the list")
        case .refused(.invalid(let reason)): WireError(.badRequest, reason)
        case .refused(.pick(let rule)): WireError(.badRequest, rule.message)
        case .refused(.removedFromGroup(let words)):
            WireError(.removed, "this peerd was \(words); nothing it makes reaches the group any more")
        case .rejected(.invalid(let id, let reason)): WireError(.invalidOperation, "operation \(id): \(reason)")
        case .rejected(.gap(let id, let expected)):
            WireError(.invalidOperation, "operation \(id) arrived before seq \(expected) of its origin")
        case .rejected(.forgedOwnOrigin(let id)):
            WireError(.invalidOperation, "operation \(id) is in my name but I never made it")
        case .storage(let error): WireError(.storageFailed, "\(error)")
        case .shuttingDown: WireError(.shuttingDown, "peerd is shutting down; nothing was changed")
        }
    }
}

extension ReplicaService {
    /// What a write's `error` is told as, whichever door asked: a ``Failure``'s own mapping, or
    /// `internal` for anything else.
    package static func wireError(_ error: any Error) -> WireError {
        (error as? Failure)?.wireError ?? WireError(.internal, "\(error)")
    }
}
