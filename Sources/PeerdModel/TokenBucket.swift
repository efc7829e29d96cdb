/// A rate cap: a steady `interval` per unit of cost, with bursts of up to `burst` units at once
/// (the generic cell rate algorithm, the token bucket expressed in time: one "theoretical arrival
/// time" instead of a token count). The one rate limiter of peerd: TMDB requests, catalog queries,
/// guests' requests, and a peer's frames and bytes (`RateLimit`, two of these).
///
/// Refilling is a `max` with `now`, never a product of elapsed time and rate, so no gap, however
/// long, can overflow. Pure and generic over the instant, so tests step time.
package struct TokenBucket<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    /// The time one unit takes to refill: one second over the rate.
    package let interval: Duration
    package let burst: Int
    /// When the bucket is full again if nothing more is taken (the next unit's arrival if units
    /// came back to back); nil before the first.
    private var theoreticalArrival: Instant?

    package init(interval: Duration, burst: Int) {
        self.interval = interval
        self.burst = max(1, burst)
    }

    /// A bucket refilling `rate` units a second.
    package init(rate: Int, burst: Int) {
        precondition(rate > 0, "a rate must be positive")
        self.init(interval: .seconds(1) / rate, burst: burst)
    }

    /// Takes `cost` units and says how long to wait before using them; takes nothing and answers
    /// nil when that wait would be over `maxWait`, or when `cost` is more than the whole burst.
    package mutating func reserve(_ cost: Int = 1, now: Instant, maxWait: Duration) -> Duration? {
        // More than the burst never fits; refusing it first also keeps `interval × cost` small.
        guard cost <= burst else { return nil }
        let wait = waitForSlot(cost, now: now)
        guard wait <= maxWait else { return nil }
        theoreticalArrival = (theoreticalArrival.map { max($0, now) } ?? now).advanced(by: interval * max(0, cost))
        return wait
    }

    /// Whether `cost` units are there at `now`; if they are, they are taken.
    package mutating func take(_ cost: Int = 1, now: Instant) -> Bool {
        reserve(cost, now: now, maxWait: .zero) != nil
    }

    /// How long until `cost` units (at most the burst) are there.
    package func waitForSlot(_ cost: Int = 1, now: Instant) -> Duration {
        guard let theoreticalArrival else { return .zero }
        let earliest = theoreticalArrival.advanced(by: .zero - interval * (burst - min(cost, burst)))
        return earliest > now ? now.duration(to: earliest) : .zero
    }

    /// Whether the whole burst is free again: nothing worth remembering about this bucket.
    package func isFull(now: Instant) -> Bool {
        theoreticalArrival.map { $0 <= now } ?? true
    }
}
