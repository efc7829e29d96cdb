package import PeerdModel

/// One session's part in the relay tree (proto/PEER.md, "Relay tree"), as a plain value: for which
/// origins this session pushes operations at once (eager) and for which it only announces what it
/// holds (lazy), what the other side's announcements showed we lack, and when to ask for it.
///
/// It is Plumtree's rule (Leitão, Pereira and Rodrigues, "Epidemic Broadcast Trees", 2007) per
/// origin: every session starts eager; a receiver that gets an origin's operations it already
/// held prunes that origin on the session they came by; an announcement (`have`) of operations the
/// receiver still lacks a while later grafts the origin back. On a full mesh each origin's own
/// sessions stay eager (a receiver never prunes an origin on its session with that origin), so an
/// operation travels once to each peer instead of once over every session.
package struct SessionRelay<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    package struct Timing: Sendable, Hashable {
        /// The first `have` goes out at once, the next after this at the soonest, ...
        package var haveInterval: Duration = .seconds(5)
        /// ... and the spacing doubles after each `have` up to this, back to `haveInterval` when the
        /// other side grafts. A `have` is the tree's safety net: on a healthy full mesh each of its
        /// N × (N − 1) sessions announcing every 5 s was the larger part of the traffic of a
        /// mesh of 30 under load (bench/README.md, "Mesh").
        package var haveIntervalLimit: Duration = .seconds(60)
        /// How long a `have`'s news may stay missing here before the origin is grafted.
        package var graftDelay: Duration = .seconds(1)

        package init() {}
    }

    /// This peer and the one at the other end of the session.
    let local: PeerID
    let remote: PeerID
    let timing: Timing
    /// Origins whose operations are only announced on this session, not pushed.
    private(set) var lazy: Set<PeerID> = []
    /// The vector announced in the last `have`, and when.
    private var announced = VersionVector()
    private var lastHave: Instant?
    /// How long after `lastHave` the next `have` may go.
    private var haveSpacing: Duration?
    /// Origins the other side holds more of than we do, per its `have`: the seq, and since when.
    private var missed: [PeerID: (seq: UInt64, since: Instant)] = [:]

    package init(local: PeerID, remote: PeerID, timing: Timing = .init()) {
        self.local = local
        self.remote = remote
        self.timing = timing
    }

    package func isLazy(_ origin: PeerID) -> Bool { lazy.contains(origin) }

    // MARK: What the other side says

    /// It got operations of `origins` it already held from us: stop pushing those (never our own,
    /// which only we can push first).
    package mutating func pruned(_ origins: [PeerID]) {
        let local = self.local
        lazy.formUnion(origins.filter { $0 != local })
    }

    /// It lacks operations of `origins`: push them again, and announce often again (the tree has a
    /// gap here).
    package mutating func grafted(_ origins: [PeerID]) {
        lazy.subtract(origins)
        haveSpacing = timing.haveInterval
    }

    /// It announced `vector`; what it holds beyond `held` (ours) is noted as missed, from `now`.
    package mutating func announced(_ vector: VersionVector, held: VersionVector, now: Instant) {
        for (origin, seq) in vector.entries where seq > held[origin] {
            let since = missed[origin]?.since ?? now
            missed[origin] = (max(seq, missed[origin]?.seq ?? 0), since)
        }
    }

    // MARK: What to send

    /// The origins to prune on this session, of those whose operations arrived on it already held:
    /// every one but the other side's own, and ours (relayed back to us; the other side ignores a
    /// prune of our id, since an origin always pushes its own operations).
    package func prunable(_ heldAlready: Set<PeerID>) -> [PeerID] {
        heldAlready.filter { $0 != remote && $0 != local }.sorted()
    }

    /// A lazy origin holds more here than the other side is known to hold and than the last `have` said.
    package func hasNews(held: VersionVector, peerHas: VersionVector) -> Bool {
        lazy.contains { origin in held[origin] > max(peerHas[origin], announced[origin]) }
    }

    /// A `have` is due when there is news (``hasNews(held:peerHas:)``) and the spacing since the
    /// last one has passed.
    package mutating func haveDue(held: VersionVector, peerHas: VersionVector, now: Instant) -> Bool {
        guard hasNews(held: held, peerHas: peerHas) else { return false }
        let spacing = haveSpacing ?? timing.haveInterval
        if let lastHave, lastHave.duration(to: now) < spacing { return false }
        if lastHave != nil { haveSpacing = min(spacing * 2, timing.haveIntervalLimit) }
        announced = held
        lastHave = now
        return true
    }

    /// When ``haveDue(held:peerHas:now:)`` or ``graftsDue(held:now:)`` next says yes, if nothing else
    /// changes: a `have` owed (at `now` if none was sent yet, else the spacing after the last), or
    /// the first graft of an origin still missing here.
    package func nextDeadline(held: VersionVector, peerHas: VersionVector, now: Instant) -> Instant? {
        let spacing = haveSpacing ?? timing.haveInterval
        let have = hasNews(held: held, peerHas: peerHas) ? lastHave.map { $0.advanced(by: spacing) } ?? now : nil
        var next = have
        for (origin, entry) in missed where entry.seq > held[origin] {
            let graft = entry.since.advanced(by: timing.graftDelay)
            next = min(next ?? graft, graft)
        }
        return next
    }

    /// The origins to graft: those a `have` showed missing here for `graftDelay`, and still missing.
    package mutating func graftsDue(held: VersionVector, now: Instant) -> [PeerID] {
        missed = missed.filter { $0.value.seq > held[$0.key] }
        let due = missed.filter { $0.value.since.duration(to: now) >= timing.graftDelay }.keys.sorted()
        for origin in due { missed[origin] = nil }
        return due
    }
}
