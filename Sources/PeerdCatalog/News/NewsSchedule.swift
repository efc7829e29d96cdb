package import PeerdModel

/// Pure: when each wanted movie's where-to-watch is checked for news, and which token holder
/// checks it (proto/PEER.md, "News").
///
/// Every movie a member wants and nobody has seen is checked once an ``interval`` (a day by
/// default), each at a phase of its own (a hash of its id), so a long list costs TMDB a request
/// now and then over the day, never a burst. Of the token holders a peer knows (itself and the
/// connected peers whose hello says `news`), only one checks a movie: the one whose hash of
/// `"<peer>/<movie>"` is lowest, as details take turns (``FetchPolicy/turnDelay(of:peer:)``). So
/// one movie costs the group one request an interval, and two holders report one change twice
/// only when they cannot see each other (the fold counts such a report once, ``NewsFeed``).
///
/// Times are wall-clock milliseconds: when each movie was last checked is kept across restarts
/// (``NewsChecks``), and a check that a restart cut short was never recorded, so it is made again.
package struct NewsSchedule: Sendable {
    package enum Next: Hashable, Sendable {
        /// Check this movie now; it counts as under way until ``checked(_:at:)`` or ``failed(_:at:)``.
        case check(MovieID)
        /// Nothing is due before then.
        case wait(until: Int64)
        /// No movie is this peer's to check.
        case idle
    }

    package let peer: PeerID
    /// How often each movie is checked, in milliseconds.
    package let interval: Int64
    /// When each movie was last checked, milliseconds since 1970 (kept in ``NewsChecks``).
    package private(set) var checked: [MovieID: Int64]
    /// The movies that are this peer's to check, and when each was first seen wanted here.
    private var mine: [MovieID: Int64] = [:]
    /// When a movie whose check failed is tried again.
    private var retries: [MovieID: Int64] = [:]
    private var underWay: Set<MovieID> = []

    /// A failed check is tried again after this long, or the interval when that is shorter.
    package static let retryWait: Int64 = 5 * 60 * 1_000

    package init(peer: PeerID, interval: Duration, checked: [MovieID: Int64] = [:]) {
        self.peer = peer
        self.interval = max(1_000, interval.wholeMilliseconds)
        self.checked = checked
    }

    /// Follows the group: `wanted` are the movies to watch, `holders` the token holders this
    /// peer knows besides itself. Forgets the checks of movies no longer wanted.
    package mutating func reconcile(wanted: [MovieID], holders: [PeerID], now: Int64) {
        let everyone = holders + [peer]
        var next: [MovieID: Int64] = [:]
        for movie in wanted where Self.turn(of: movie, among: everyone) == peer {
            next[movie] = mine[movie] ?? now
        }
        mine = next
        let stillWanted = Set(wanted)
        checked = checked.filter { stillWanted.contains($0.key) }
        retries = retries.filter { next[$0.key] != nil }
    }

    /// The movie to check now (earliest due first), else when to look again.
    package mutating func next(now: Int64) -> Next {
        let waiting = mine.keys.filter { !underWay.contains($0) }
        guard let movie = waiting.min(by: { (due(of: $0), $0) < (due(of: $1), $1) }) else { return .idle }
        let dueAt = due(of: movie)
        guard dueAt <= now else { return .wait(until: dueAt) }
        underWay.insert(movie)
        return .check(movie)
    }

    /// When `movie` is next due: a failed check's retry; an interval after its last check; else
    /// at its phase within the interval from when it was first seen wanted.
    package func due(of movie: MovieID) -> Int64 {
        if let retry = retries[movie] { return retry }
        if let last = checked[movie] { return last + interval }
        return (mine[movie] ?? 0) + Int64(Self.hash("\(movie.rawValue)") % UInt64(interval))
    }

    /// The check of `movie` is done, and any news of it is durable.
    package mutating func checked(_ movie: MovieID, at now: Int64) {
        underWay.remove(movie)
        retries[movie] = nil
        checked[movie] = now
    }

    /// The check of `movie` failed: it is tried again later.
    package mutating func failed(_ movie: MovieID, at now: Int64) {
        underWay.remove(movie)
        retries[movie] = now + min(Self.retryWait, interval)
    }

    /// Which of `holders` checks `movie`: the lowest hash of `"<peer>/<movie>"`.
    package static func turn(of movie: MovieID, among holders: [PeerID]) -> PeerID? {
        holders.min { (hash("\($0.rawValue)/\(movie.rawValue)"), $0) < (hash("\($1.rawValue)/\(movie.rawValue)"), $1) }
    }

    /// FNV-1a, 64 bits, then MurmurHash3's finalizer: the same on every peer and every run
    /// (Swift's `Hasher` is seeded per process). FNV-1a alone orders two peers' hashes of one
    /// movie alike for nearly every movie (its high bits barely feel the last bytes); the
    /// finalizer mixes every bit into every other.
    static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        hash = (hash ^ (hash >> 33)) &* 0xff51_afd7_ed55_8ccd
        hash = (hash ^ (hash >> 33)) &* 0xc4ce_b9fe_1a85_ec53
        return hash ^ (hash >> 33)
    }
}
