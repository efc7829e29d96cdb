package import PeerdModel

/// Pure: how fast guests may ask (proto/WEB.md, "Guests"), per address and per guest, with a
/// bounded memory (``RateBuckets``).
package struct GuestLimits<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    package enum Kind: Sendable { case request, join }

    /// Every request per address: 40 at once, then 20 a second.
    static var requests: RateBuckets<Instant>.Rate { .init(interval: .milliseconds(50), burst: 40) }
    /// Joins per address: 5, then one per 10 s.
    static var joins: RateBuckets<Instant>.Rate { .init(interval: .seconds(10), burst: 5) }
    /// Votes per guest: 20, then 4 a second.
    static var votes: RateBuckets<Instant>.Rate { .init(interval: .milliseconds(250), burst: 20) }
    package static var streamsPerAddress: Int { 8 }
    package static var streamsInAll: Int { 128 }

    private var requests = RateBuckets<Instant>(Self.requests)
    private var joins = RateBuckets<Instant>(Self.joins)
    private var votes = RateBuckets<Instant>(Self.votes)
    private var streams = StreamCount(perKey: Self.streamsPerAddress, inAll: Self.streamsInAll)

    package init() {}

    /// How many addresses and guests the limits remember now (for tests: it stays bounded).
    var tracked: Int { max(requests.tracked, joins.tracked, votes.tracked) }

    /// nil when `address` may go on; else how long until it may.
    package mutating func admit(_ kind: Kind, from address: String, now: Instant) -> Duration? {
        switch kind {
        case .request: requests.take(address, now: now)
        case .join: joins.take(address, now: now)
        }
    }

    package mutating func admitVote(by guest: Pick.Guest, now: Instant) -> Duration? {
        votes.take(guest.id, now: now)
    }

    /// Whether `address` may open one more event stream; if so it counts until ``closeStream(from:)``.
    package mutating func openStream(from address: String) -> Bool { streams.open(address) }

    package mutating func closeStream(from address: String) { streams.close(address) }
}
