package import PeerdModel

extension FetchSchedule {
    /// Why `movie` has no details yet, in words for `peerctl show`, or nil when nothing is pending:
    /// "fetch failed 3 times (TMDB answered 500 (Internal Server Error)); next try in 12 s".
    package func pendingReason(_ movie: MovieID, now: Instant) -> String? {
        guard let entry = entries[movie] else { return nil }
        let start = startOf(entry)
        let wait = start > now ? FetchWait.text(now.duration(to: start)) : nil
        if entry.missing {
            return "TMDB has no movie \(movie) (it answered 404), so no details will come: "
                + "take it off the list with peerctl remove \(movie)"
        }
        if entry.stopped {
            return "fetch failed (\(entry.lastCause ?? "unknown")); not retrying: peerctl refresh \(movie) tries again"
        }
        if entry.underWay {
            return entry.failures == 0 ? "fetching from TMDB now" : "fetching from TMDB now (try \(entry.failures + 1))"
        }
        if let cause = entry.lastCause {
            let times = entry.failures == 1 ? "1 time" : "\(entry.failures) times"
            return "fetch failed \(times) (\(cause)); next try \(wait.map { "in \($0)" } ?? "now")"
        }
        if entry.refresh {
            return "refresh queued; fetching from TMDB \(wait.map { "in \($0)" } ?? "now")"
        }
        if !entry.addedHere, let wait {
            return "waiting for a peer with a TMDB token to describe it; fetching it here in \(wait) if none does"
        }
        return "queued to fetch from TMDB \(wait.map { "in \($0)" } ?? "now")"
    }
}
