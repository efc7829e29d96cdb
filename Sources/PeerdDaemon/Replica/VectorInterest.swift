import PeerdModel
import Synchronization

/// Which commits wake a session: those of origins it pushes at once. A session that is lazy for
/// an origin (the relay tree) only announces it, at most every few seconds, so a commit of that
/// origin alone is noted here instead and picked up at the session's next tick. On a full mesh of
/// N peers most sessions are lazy for most origins; waking all N − 1 of them on every commit
/// would cost O(N) wakeups per operation on each peer, O(N²) in all.
///
/// Shared by the replica (which asks) and one connection (which says what it is lazy for).
final class VectorInterest: Sendable {
    private struct State {
        var lazy: Set<PeerID> = []
        var missed = false
    }

    private let state = Mutex(State())

    /// The session's lazy origins changed.
    func setLazy(_ origins: Set<PeerID>) {
        state.withLock { $0.lazy = origins }
    }

    /// Whether a commit of operations from `origins` should wake the session; if not, it is noted.
    func wants(_ origins: Set<PeerID>) -> Bool {
        state.withLock { state in
            if state.lazy.isEmpty || !origins.isSubset(of: state.lazy) { return true }
            state.missed = true
            return false
        }
    }

    /// True once after a commit was not passed on.
    func takeMissed() -> Bool {
        state.withLock { state in
            defer { state.missed = false }
            return state.missed
        }
    }
}
