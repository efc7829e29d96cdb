import Synchronization

/// How far reading a peer's frames may run ahead of handling them: a frame counts from the moment
/// it is read until the loop has handled it and, for operations, the replica has made them durable
/// (or refused them). The reader stops reading at `limit` frames, so TCP's window holds back a
/// peer that sends faster than this one commits, instead of this daemon's memory: a fresh peer
/// catching up 100,000 movies had queued tens of thousands of decoded operations at once, and its
/// RSS ended 8 to 16 MB higher for it.
///
/// Hand-written: neither the standard library nor SwiftNIO has an async semaphore, and this is a
/// counter and one waiter.
final class ReadCredit: Sendable {
    private struct State {
        var inFlight = 0
        var waiter: CheckedContinuation<Void, Never>?
        var cancelled = false
    }

    /// Four catch-up frames of up to 64 KiB each: the replica always has the next batch at hand,
    /// and at most about 800 operations wait for it.
    static let defaultLimit = 4

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int = ReadCredit.defaultLimit) {
        self.limit = max(1, limit)
    }

    /// The reader has handed over one more frame: returns once fewer than `limit` are in flight,
    /// or at once when the reading task is cancelled.
    func handedOver() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    state.inFlight += 1
                    guard state.inFlight >= limit, !state.cancelled else { return true }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { state in
                state.cancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }?.resume()
        }
    }

    /// One frame is done with.
    func done() {
        state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.inFlight -= 1
            guard state.inFlight < limit else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
    }
}
