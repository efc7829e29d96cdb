package import PeerdModel

/// Pure: one token bucket per key (an address, a guest, a device), with a bounded memory: a flood
/// of new keys forgets the quietest first, and never holds more than ``maxTracked``. What the doors
/// on the LAN (guests, devices) limit their visitors with.
package struct RateBuckets<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    /// A rate: `burst` at once, then one per `interval`.
    package struct Rate: Sendable {
        package var interval: Duration
        package var burst: Int

        package init(interval: Duration, burst: Int) {
            self.interval = interval
            self.burst = burst
        }
    }

    static var maxTracked: Int { 1024 }

    let rate: Rate
    private var buckets: [String: TokenBucket<Instant>] = [:]

    package init(_ rate: Rate) { self.rate = rate }

    /// How many keys are remembered now.
    var tracked: Int { buckets.count }

    /// nil when `key` may go on (and one is taken from its bucket); else how long until it may.
    package mutating func take(_ key: String, now: Instant) -> Duration? {
        if buckets[key] == nil, buckets.count >= Self.maxTracked { forgetIdle(now: now) }
        var bucket = buckets[key] ?? TokenBucket(interval: rate.interval, burst: rate.burst)
        guard bucket.reserve(now: now, maxWait: .zero) != nil else {
            return max(bucket.waitForSlot(now: now), .milliseconds(1))
        }
        if buckets[key] != nil || buckets.count < Self.maxTracked { buckets[key] = bucket }
        return nil
    }

    /// Drops the buckets that are full again (nothing to remember); when none is, all of them: at
    /// worst a flood's newest keys get a fresh burst, and memory stays bounded.
    private mutating func forgetIdle(now: Instant) {
        buckets = buckets.filter { !$0.value.isFull(now: now) }
        if buckets.count >= Self.maxTracked { buckets.removeAll(keepingCapacity: true) }
    }
}

/// Pure: the event streams open per key, at most ``perKey`` each and ``inAll`` together.
package struct StreamCount: Sendable {
    let perKey: Int
    let inAll: Int
    private var open: [String: Int] = [:]

    package init(perKey: Int, inAll: Int) {
        self.perKey = perKey
        self.inAll = inAll
    }

    /// Whether `key` may open one more; if so it counts until ``close(_:)``.
    package mutating func open(_ key: String) -> Bool {
        let count = open[key, default: 0]
        guard count < perKey, open.values.reduce(0, +) < inAll else { return false }
        open[key] = count + 1
        return true
    }

    package mutating func close(_ key: String) {
        guard let count = open[key] else { return }
        open[key] = count > 1 ? count - 1 : nil
    }
}
