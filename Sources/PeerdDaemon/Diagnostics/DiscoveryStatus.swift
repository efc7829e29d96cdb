import PeerdDiscovery
import PeerdModel
import PeerdWire
import Synchronization

/// How mDNS discovery stands: written by ``MDNSDiscovery`` as Avahi's events come, read by the
/// control responder for `diagnose`.
final class DiscoveryStatus: Sendable {
    /// False with `--no-mdns`: then the log stays as it started and `record` says discovery is off.
    let enabled: Bool
    private let log: Mutex<DiscoveryLog>

    init(localID: PeerID, enabled: Bool) {
        self.enabled = enabled
        log = Mutex(DiscoveryLog(localID: localID))
    }

    func apply(_ event: AvahiEvent) {
        let now = Wallclock.millis()
        log.withLock { $0.apply(event, at: now) }
    }

    var record: DiscoveryRecord {
        enabled ? log.withLock { $0.record } : .off
    }
}
