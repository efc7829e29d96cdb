import Synchronization

/// Wakes one waiting task: the catalog's loop sleeps on it until a change or a refresh (or a
/// deadline). A wake with no one waiting is kept for the next wait, so none is lost.
final class WakeSignal: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    func wake() {
        let waiter = state.withLock { state in
            guard let waiter = state.waiter else {
                state.pending = true
                return CheckedContinuation<Void, Never>?.none
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns at the next wake (at once if one came since the last wait), or when the task is cancelled.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    if state.pending || Task.isCancelled {
                        state.pending = false
                        return true
                    }
                    precondition(state.waiter == nil, "one task waits on a WakeSignal at a time")
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }?.resume()
        }
    }

    /// Returns at the next wake, at `deadline`, or when the task is cancelled, whichever comes first.
    func wait<WaitClock: Clock>(until deadline: WaitClock.Instant, on clock: WaitClock) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await clock.sleep(until: deadline, tolerance: nil) }
            group.addTask { await self.wait() }
            await group.next()
            group.cancelAll()
        }
    }
}
