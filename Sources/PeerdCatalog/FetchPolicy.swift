package import PeerdModel

/// The numbers behind ``FetchSchedule``.
package struct FetchPolicy: Hashable, Sendable {
    /// How long a peer waits before fetching a movie another peer added: a point in this range
    /// taken from a hash of the movie id and the peer's id, so peers with tokens take turns.
    package var turnDelay: ClosedRange<Duration>
    /// A transient failure (``UpstreamFailure/isTransient``) is retried this many times after a
    /// short wait…
    package var quickRetries: Int
    /// …jittered within this range.
    package var quickRetry: ClosedRange<Duration>
    /// Then a transient failure is retried after `steadyRetry` (jittered to between half and all
    /// of it) this many more times, before the backoff starts: TMDB failing now and then is met
    /// with a try a second or so, not a wait of minutes. At 80% failures the tries 30 s hold (29
    /// on average, 22 at the least) all fail about once in 600 movies (0.8^29).
    package var steadyRetries: Int
    package var steadyRetry: Duration
    /// This many failed fetches in a row, whatever the movies, and TMDB looks down: every fetch
    /// waits the backoff after (failures in a row − `outageFailures` + 1) failures, until TMDB
    /// answers again, so an outage costs one request per wait, not one per movie.
    package var outageFailures: Int
    /// The wait after the first failure that is not retried quickly or steadily; it doubles with
    /// each further failure…
    package var firstRetry: Duration
    /// …up to this. Each wait is jittered to between half and all of it.
    package var maxRetry: Duration
    /// TMDB's `Retry-After` is honoured up to this long.
    package var maxRetryAfter: Duration
    /// How long an add on a token holder waits for TMDB to say whether the movie exists (and its
    /// title) before it is written as it came.
    package var addCheckWait: Duration

    package init(
        turnDelay: ClosedRange<Duration> = .seconds(1) ... .seconds(5),
        quickRetries: Int = 3,
        quickRetry: ClosedRange<Duration> = .milliseconds(200) ... .milliseconds(600),
        steadyRetries: Int = 40,
        steadyRetry: Duration = .milliseconds(1_500),
        outageFailures: Int = 50,
        firstRetry: Duration = .seconds(2),
        maxRetry: Duration = .seconds(600),
        maxRetryAfter: Duration = .seconds(3_600),
        addCheckWait: Duration = .seconds(1)
    ) {
        self.turnDelay = turnDelay
        self.quickRetries = quickRetries
        self.quickRetry = quickRetry
        self.steadyRetries = steadyRetries
        self.steadyRetry = steadyRetry
        self.outageFailures = max(1, outageFailures)
        self.firstRetry = firstRetry
        self.maxRetry = maxRetry
        self.maxRetryAfter = maxRetryAfter
        self.addCheckWait = addCheckWait
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

    /// The wait before a steady retry: ``steadyRetry`` scaled by `0.5 + jitter / 2`.
    package func steadyRetryDelay(jitter: Double) -> Duration {
        steadyRetry * (0.5 + min(max(jitter, 0), 1) / 2)
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
