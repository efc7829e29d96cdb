package import PeerdModel

/// Pure: when each undescribed movie is fetched, and why it is still pending.
///
/// A movie this peer added is fetched at once; one another peer added after ``FetchPolicy/turnDelay``
/// (1 to 5 s from a hash of the movie id and this peer's id), so peers with tokens take turns and the
/// first describe to arrive cancels the rest: normally one request per movie, at most one per token
/// holder plus retries. A transient failure (a 5xx, a timeout, a broken connection) is retried
/// after a fraction of a second, three times, then every second or so, forty times
/// (``FetchPolicy``); then, and after any other failure, it waits an exponential backoff with
/// jitter, or TMDB's `Retry-After`, which then holds back every fetch. So does an outage: after
/// ``FetchPolicy/outageFailures`` failures in a row every fetch waits the backoff, and TMDB's next
/// answer makes every waiting movie due at once. A refused token or a missing movie (401, 404) is
/// not retried until a refresh. Generic over the instant, so tests step time without sleeping.
package struct FetchSchedule<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    /// What to do next.
    package enum Next: Hashable, Sendable {
        /// Fetch this movie now; it counts as under way until ``succeeded(_:)`` or ``failed(_:_:now:jitter:)``.
        case fetch(MovieID)
        /// Nothing is due before this instant.
        case wait(until: Instant)
        /// Nothing is pending.
        case idle
    }

    struct Entry: Sendable {
        var due: Instant
        var addedHere: Bool
        /// Queued by `refresh`: fetched although the movie may be described, and kept when it is.
        var refresh = false
        var underWay = false
        var failures = 0
        /// Of the failures, those retried after a short wait (at most ``FetchPolicy/quickRetries``).
        var quickRetries = 0
        /// Of the failures, those retried after ``FetchPolicy/steadyRetry`` (at most ``FetchPolicy/steadyRetries``).
        var steadyRetries = 0
        var lastCause: String?
        /// Not retried until a refresh.
        var stopped = false
        /// Stopped because TMDB has no such movie (404).
        var missing = false
    }

    package let peer: PeerID
    package let policy: FetchPolicy
    var entries: [MovieID: Entry] = [:]
    /// TMDB asked every request to wait until then (a `Retry-After`).
    var pausedUntil: Instant?
    /// Fetches that failed in a row, of any movies (a 404, a 401 or an answer ends the run; a
    /// `Retry-After` is no part of it).
    var failingStreak = 0
    /// TMDB looks down (``FetchPolicy/outageFailures``): every fetch waits until then.
    var downUntil: Instant?

    package init(peer: PeerID, policy: FetchPolicy = FetchPolicy()) {
        self.peer = peer
        self.policy = policy
    }

    /// Follows the replica: a movie newly undescribed is scheduled; one that is no longer (a describe
    /// arrived, or it was removed) is dropped, unless a refresh queued it.
    package mutating func reconcile(undescribed: [(movie: MovieID, addedHere: Bool)], now: Instant) {
        var listed = Set<MovieID>()
        for (movie, addedHere) in undescribed {
            listed.insert(movie)
            guard entries[movie] == nil else { continue }
            let delay = addedHere ? .zero : policy.turnDelay(of: movie, peer: peer)
            entries[movie] = Entry(due: now.advanced(by: delay), addedHere: addedHere)
        }
        entries = entries.filter { listed.contains($0.key) || $0.value.refresh }
    }

    /// Queues fetches of `movies` now, described or not, and says how many were queued.
    package mutating func refresh(_ movies: [MovieID], now: Instant) -> Int {
        let unique = Set(movies)
        for movie in unique {
            var entry = entries[movie] ?? Entry(due: now, addedHere: true)
            entry.due = now
            entry.refresh = true
            entry.stopped = false
            entry.failures = 0
            entry.quickRetries = 0
            entry.steadyRetries = 0
            entry.lastCause = nil
            entry.missing = false
            entries[movie] = entry
        }
        return unique.count
    }

    /// The movie to fetch now (earliest due first), else when to look again.
    package mutating func next(now: Instant) -> Next {
        let waiting = entries.filter { !$0.value.underWay && !$0.value.stopped }
        guard let (movie, entry) = waiting.min(by: { ($0.value.due, $0.key) < ($1.value.due, $1.key) }) else {
            return .idle
        }
        let start = startOf(entry)
        guard start <= now else { return .wait(until: start) }
        entries[movie]?.underWay = true
        return .fetch(movie)
    }

    /// Whether `movie` still needs the fetch under way (no describe arrived meanwhile).
    package func isWanted(_ movie: MovieID) -> Bool { entries[movie] != nil }

    /// Whether the pending fetch of `movie` was queued by a refresh (so a cached copy won't do).
    package func isRefresh(_ movie: MovieID) -> Bool { entries[movie]?.refresh ?? false }

    /// How many times fetching `movie` has failed so far.
    package func failures(of movie: MovieID) -> Int { entries[movie]?.failures ?? 0 }

    /// The fetch succeeded (and the describe is appended): nothing more is pending for `movie`.
    package mutating func succeeded(_ movie: MovieID) {
        entries[movie] = nil
    }

    /// The fetch failed: a transient failure is retried after a short wait, the first
    /// ``FetchPolicy/quickRetries`` times, then after ``FetchPolicy/steadyRetry`` the next
    /// ``FetchPolicy/steadyRetries`` times; otherwise after the backoff (`jitter` in 0..<1) or
    /// TMDB's `Retry-After`, or, for a failure that asking again cannot fix, not until a refresh.
    package mutating func failed(_ movie: MovieID, _ error: CatalogError, now: Instant, jitter: Double) {
        guard var entry = entries[movie] else { return }
        let failure = error.upstreamFailure
        entry.underWay = false
        entry.failures += 1
        entry.lastCause = failure.map(String.init(describing:)) ?? error.description
        if let failure, failure.isPermanent {
            entry.stopped = true
            entry.missing = failure.isMissing
            answered(now: now)
        } else if let retryAfter = failure?.retryAfter {
            entry.due = now.advanced(by: min(max(retryAfter, .seconds(1)), policy.maxRetryAfter))
            pausedUntil = max(pausedUntil ?? entry.due, entry.due)
        } else {
            entry.due = now.advanced(by: retryWait(&entry, transient: failure?.isTransient == true, jitter: jitter))
            if failure != nil { countFailure(now: now, jitter: jitter) }
        }
        entries[movie] = entry
    }

    /// TMDB answered (details, or a 404 or 401): a run of failures ends, and if TMDB looked down,
    /// every movie waiting out a backoff is due at once.
    package mutating func answered(now: Instant) {
        failingStreak = 0
        guard downUntil != nil else { return }
        downUntil = nil
        for (movie, entry) in entries where !entry.stopped && !entry.underWay && entry.due > now {
            entries[movie]?.due = now
        }
    }

    /// A request outside the schedule (an add's check) failed with `failure`: TMDB's `Retry-After`
    /// holds back every fetch, as it would have one of the schedule's own. peerd's own cap does
    /// not: an add's check that found no slot says nothing of TMDB.
    package mutating func held(by failure: UpstreamFailure, now: Instant) {
        guard case .status(_, _, _, let retryAfter?) = failure else { return }
        let until = now.advanced(by: min(max(retryAfter, .seconds(1)), policy.maxRetryAfter))
        pausedUntil = max(pausedUntil ?? until, until)
    }

    /// Whether TMDB asked to wait, or looks down, at `now`: a request may wait no longer.
    package func isHeld(now: Instant) -> Bool {
        max(pausedUntil ?? now, downUntil ?? now) > now
    }

    func startOf(_ entry: Entry) -> Instant {
        max(entry.due, pausedUntil ?? entry.due, downUntil ?? entry.due)
    }

    private func retryWait(_ entry: inout Entry, transient: Bool, jitter: Double) -> Duration {
        if transient, entry.quickRetries < policy.quickRetries {
            entry.quickRetries += 1
            return policy.quickRetryDelay(jitter: jitter)
        }
        if transient, entry.steadyRetries < policy.steadyRetries {
            entry.steadyRetries += 1
            return policy.steadyRetryDelay(jitter: jitter)
        }
        let failures = entry.failures - entry.quickRetries - entry.steadyRetries
        return policy.backoff(afterFailures: failures, jitter: jitter)
    }

    /// One more failure in a row; from ``FetchPolicy/outageFailures`` on, every fetch waits.
    private mutating func countFailure(now: Instant, jitter: Double) {
        failingStreak += 1
        let beyond = failingStreak - policy.outageFailures + 1
        guard beyond >= 1 else { return }
        downUntil = now.advanced(by: policy.backoff(afterFailures: beyond, jitter: jitter))
    }
}
