/// Reconnect delays: exponential from `initial` up to `maximum`, times a jitter factor in [0.75, 1]
/// so peers that lost each other at the same moment don't redial in lockstep (proto/PEER.md). A session that lasted `resetAfter`
/// counts as healthy and starts the sequence over.
package struct Backoff: Sendable {
    package var initial: Duration = .milliseconds(500)
    package var maximum: Duration = .seconds(30)
    package var resetAfter: Duration = .seconds(10)
    private var attempt = 0

    package init() {}

    /// The delay before the next dial, given how long the last session was established (nil if never).
    package mutating func next(after established: Duration?, using generator: inout some RandomNumberGenerator)
        -> Duration
    {
        if let established, established >= resetAfter { attempt = 0 }
        let base = min(initial * (1 << min(attempt, 16)), maximum)
        attempt += 1
        let jitter = Double.random(in: 0.75...1.0, using: &generator)
        return base * jitter
    }

    package mutating func next(after established: Duration?) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return next(after: established, using: &generator)
    }
}
