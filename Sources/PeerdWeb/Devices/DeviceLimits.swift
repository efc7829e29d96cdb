package import PeerdModel

/// Pure: how fast the device door may be asked (proto/WEB.md, "Devices"): every request per
/// address, a linked device's requests, link attempts per address, and event streams per device.
package struct DeviceLimits<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    package enum Kind: Sendable { case request, link }

    /// Every request per address: 60 at once (a page's first load), then 20 a second.
    static var requests: RateBuckets<Instant>.Rate { .init(interval: .milliseconds(50), burst: 60) }
    /// Links opened per address: 5, then one per 10 s (a code has 128 bits: this only keeps a
    /// guesser slow and the log short).
    static var links: RateBuckets<Instant>.Rate { .init(interval: .seconds(10), burst: 5) }
    /// A device's requests: 60, then 10 a second.
    static var deviceRequests: RateBuckets<Instant>.Rate { .init(interval: .milliseconds(100), burst: 60) }
    package static var streamsPerDevice: Int { 4 }
    package static var streamsInAll: Int { 64 }

    private var requests = RateBuckets<Instant>(Self.requests)
    private var links = RateBuckets<Instant>(Self.links)
    private var deviceRequests = RateBuckets<Instant>(Self.deviceRequests)
    private var streams = StreamCount(perKey: Self.streamsPerDevice, inAll: Self.streamsInAll)

    package init() {}

    /// nil when `address` may go on; else how long until it may.
    package mutating func admit(_ kind: Kind, from address: String, now: Instant) -> Duration? {
        switch kind {
        case .request: requests.take(address, now: now)
        case .link: links.take(address, now: now)
        }
    }

    /// nil when device `id` may go on; else how long until it may.
    package mutating func admit(device id: String, now: Instant) -> Duration? { deviceRequests.take(id, now: now) }

    /// Whether device `id` may open one more event stream; if so it counts until ``closeStream(of:)``.
    package mutating func openStream(of id: String) -> Bool { streams.open(id) }

    package mutating func closeStream(of id: String) { streams.close(id) }
}
