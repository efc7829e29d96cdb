/// A request rate cap: a steady `interval` between requests, with bursts of up to `burst` at once
/// (the generic cell rate algorithm: one "theoretical arrival time" instead of a token count).
/// Pure and generic over the instant, so tests step time.
package struct TokenBucket<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    let interval: Duration
    let burst: Int
    /// When the next request would go out if requests came back to back; nil before the first.
    private var theoreticalArrival: Instant?

    package init(interval: Duration, burst: Int) {
        self.interval = interval
        self.burst = max(1, burst)
    }

    /// Takes the next slot and says how long to wait before using it; takes nothing and answers
    /// nil when that wait would be over `maxWait`.
    package mutating func reserve(now: Instant, maxWait: Duration) -> Duration? {
        let wait = waitForSlot(now: now)
        guard wait <= maxWait else { return nil }
        theoreticalArrival = (theoreticalArrival.map { max($0, now) } ?? now).advanced(by: interval)
        return wait
    }

    /// How long until a slot frees up.
    package func waitForSlot(now: Instant) -> Duration {
        guard let theoreticalArrival else { return .zero }
        let earliest = theoreticalArrival.advanced(by: .zero - interval * (burst - 1))
        return earliest > now ? now.duration(to: earliest) : .zero
    }

    /// Whether the whole burst is free again: nothing worth remembering about this bucket.
    package func isFull(now: Instant) -> Bool {
        theoreticalArrival.map { $0 <= now } ?? true
    }
}
