import PeerdModel
import Synchronization

/// Which commits wake a session: those of origins it pushes at once, and of the others (its lazy
/// origins, which the relay tree only announces in a `have` every few seconds) just the first one
/// while no `have` is owed. Once the session owes one, it goes out at its deadline with whatever was
/// committed meanwhile, so those commits are only noted here. On a full mesh of N peers most
/// sessions are lazy for most origins; waking all N − 1 of them on every commit would cost O(N)
/// wakeups per operation on each peer, O(N²) in all, and a session that owes nothing would never
/// learn of the commit without a timer of its own.
///
/// Shared by the replica (which asks) and one connection (which says what it is lazy for, and
/// when it owes nothing and wants to hear of the next commit again).
final class VectorInterest: Sendable {
    private struct State {
        var lazy: Set<PeerID> = []
        /// The next commit of lazy origins alone wakes the session.
        var armed = true
        /// A commit was only noted since the session last looked.
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
            if state.armed {
                state.armed = false
                return true
            }
            state.missed = true
            return false
        }
    }

    /// The session owes no `have`: the next commit of its lazy origins wakes it. True when one was
    /// noted since it last looked, which it must look at now.
    func arm() -> Bool {
        state.withLock { state in
            state.armed = true
            defer { state.missed = false }
            return state.missed
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
