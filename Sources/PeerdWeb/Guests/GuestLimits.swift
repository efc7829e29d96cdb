package import PeerdModel

/// Pure: how fast guests may ask (proto/WEB.md, "Guests"), per address and per guest, with a
/// bounded memory: a flood from many addresses forgets the quietest first, and never holds more
/// than ``maxTracked`` of each.
package struct GuestLimits<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    package enum Kind: Sendable { case request, join }

    /// Every request per address: 40 at once, then 20 a second.
    static var requests: (interval: Duration, burst: Int) { (.milliseconds(50), 40) }
    /// Joins per address: 5, then one per 10 s.
    static var joins: (interval: Duration, burst: Int) { (.seconds(10), 5) }
    /// Votes per guest: 20, then 4 a second.
    static var votes: (interval: Duration, burst: Int) { (.milliseconds(250), 20) }
    package static var streamsPerAddress: Int { 8 }
    package static var streamsInAll: Int { 128 }
    static var maxTracked: Int { 1024 }

    private var requests: [String: TokenBucket<Instant>] = [:]
    private var joins: [String: TokenBucket<Instant>] = [:]
    private var votes: [String: TokenBucket<Instant>] = [:]
    private var streams: [String: Int] = [:]

    package init() {}

    /// How many addresses and guests the limits remember now (for tests: it stays bounded).
    var tracked: Int { max(requests.count, joins.count, votes.count) }

    /// nil when `address` may go on; else how long until it may.
    package mutating func admit(_ kind: Kind, from address: String, now: Instant) -> Duration? {
        switch kind {
        case .request: Self.take(&requests, address, Self.requests, now)
        case .join: Self.take(&joins, address, Self.joins, now)
        }
    }

    package mutating func admitVote(by guest: Pick.Guest, now: Instant) -> Duration? {
        Self.take(&votes, guest.id, Self.votes, now)
    }

    /// Whether `address` may open one more event stream; if so it counts until ``closeStream(from:)``.
    package mutating func openStream(from address: String) -> Bool {
        let open = streams[address, default: 0]
        guard open < Self.streamsPerAddress, streams.values.reduce(0, +) < Self.streamsInAll else { return false }
        streams[address] = open + 1
        return true
    }

    package mutating func closeStream(from address: String) {
        guard let open = streams[address] else { return }
        streams[address] = open > 1 ? open - 1 : nil
    }

    private static func take(
        _ buckets: inout [String: TokenBucket<Instant>],
        _ key: String,
        _ rate: (interval: Duration, burst: Int),
        _ now: Instant
    ) -> Duration? {
        if buckets[key] == nil, buckets.count >= maxTracked { forgetIdle(&buckets, now: now) }
        var bucket = buckets[key] ?? TokenBucket(interval: rate.interval, burst: rate.burst)
        guard bucket.reserve(now: now, maxWait: .zero) != nil else {
            return max(bucket.waitForSlot(now: now), .milliseconds(1))
        }
        if buckets[key] != nil || buckets.count < maxTracked { buckets[key] = bucket }
        return nil
    }

    /// Drops the buckets that are full again (nothing to remember); when none is, the whole map:
    /// at worst a flood's newest addresses get a fresh burst, and memory stays bounded.
    private static func forgetIdle(_ buckets: inout [String: TokenBucket<Instant>], now: Instant) {
        buckets = buckets.filter { !$0.value.isFull(now: now) }
        if buckets.count >= maxTracked { buckets.removeAll(keepingCapacity: true) }
    }
}
