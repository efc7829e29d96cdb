package import PeerdModel

/// The numbers behind ``FetchSchedule``.
package struct FetchPolicy: Hashable, Sendable {
    /// How long a peer waits before fetching a movie another peer added: a point in this range
    /// taken from a hash of the movie id and the peer's id, so peers with tokens take turns.
    package var turnDelay: ClosedRange<Duration>
    /// A transient failure (``UpstreamFailure/isTransient``) is retried this many times after a
    /// short wait…
    package var quickRetries: Int
    /// …jittered within this range, before the backoff starts.
    package var quickRetry: ClosedRange<Duration>
    /// The wait after the first failure that is not retried quickly; it doubles with each further failure…
    package var firstRetry: Duration
    /// …up to this. Each wait is jittered to between half and all of it.
    package var maxRetry: Duration
    /// TMDB's `Retry-After` is honoured up to this long.
    package var maxRetryAfter: Duration

    package init(
        turnDelay: ClosedRange<Duration> = .seconds(1) ... .seconds(5),
        quickRetries: Int = 3,
        quickRetry: ClosedRange<Duration> = .milliseconds(200) ... .milliseconds(600),
        firstRetry: Duration = .seconds(2),
        maxRetry: Duration = .seconds(600),
        maxRetryAfter: Duration = .seconds(3_600)
    ) {
        self.turnDelay = turnDelay
        self.quickRetries = quickRetries
        self.quickRetry = quickRetry
        self.firstRetry = firstRetry
        self.maxRetry = maxRetry
        self.maxRetryAfter = maxRetryAfter
    }

    /// The wait after `failures` failures (≥ 1): `firstRetry` doubled each time, capped at
    /// `maxRetry`, then scaled by `0.5 + jitter / 2` (`jitter` in 0..<1).
    package func backoff(afterFailures failures: Int, jitter: Double) -> Duration {
        let doublings = min(max(failures - 1, 0), 30)
        let full = min(firstRetry * (1 << doublings), maxRetry)
        return full * (0.5 + min(max(jitter, 0), 1) / 2)
    }

    /// The wait before a quick retry: ``quickRetry`` from its lower to its upper bound as `jitter`
    /// goes from 0 to 1.
    package func quickRetryDelay(jitter: Double) -> Duration {
        quickRetry.lowerBound + (quickRetry.upperBound - quickRetry.lowerBound) * min(max(jitter, 0), 1)
    }

    /// This peer's wait before fetching `movie` that another peer added: deterministic, spread over
    /// ``turnDelay`` by FNV-1a of `"<peer>/<movie>"`.
    package func turnDelay(of movie: MovieID, peer: PeerID) -> Duration {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(peer.rawValue)/\(movie.rawValue)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let milliseconds = (turnDelay.upperBound - turnDelay.lowerBound).wholeMilliseconds
        return turnDelay.lowerBound + .milliseconds(Int64(hash % UInt64(max(milliseconds, 0) + 1)))
    }
}
