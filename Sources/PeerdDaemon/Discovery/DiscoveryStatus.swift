import PeerdDiscovery
import PeerdLoops
import PeerdModel
import PeerdWire
import Synchronization

/// How mDNS discovery stands: written by ``MDNSDiscovery`` as Avahi's events come, read by the
/// control responder for `diagnose`, which first has our host name resolved afresh.
final class DiscoveryStatus: Sendable {
    /// False with `--no-mdns`: then the log stays as it started and `record` says discovery is off.
    let enabled: Bool
    private let log: Mutex<DiscoveryLog>
    /// Asks Avahi to resolve our host name again; set while Avahi's bridge runs.
    private let resolveAgain = Mutex<(@Sendable () -> Void)?>(nil)
    /// Rung at each answer about our host name, for `diagnose` requests waiting on one.
    private let hostAnswers = Broadcast<Void>(bufferingPolicy: .bufferingNewest(1))

    init(localID: PeerID, enabled: Bool) {
        self.enabled = enabled
        log = Mutex(DiscoveryLog(localID: localID))
    }

    /// The bridge runs (with how to resolve our host name again), or stopped (nil).
    func bridge(resolveAgain: (@Sendable () -> Void)?) {
        self.resolveAgain.withLock { $0 = resolveAgain }
    }

    func apply(_ event: AvahiEvent) {
        let now = Wallclock.millis()
        log.withLock { $0.apply(event, at: now) }
        switch event {
        case .hostResolved, .hostNotResolved, .connecting, .unavailable:
            hostAnswers.yield(())
        default:
            break
        }
    }

    var record: DiscoveryRecord {
        enabled ? log.withLock { $0.record } : .off
    }

    /// The record after Avahi was asked to resolve our host name again and answered, or `limit`
    /// passed: a name that failed to resolve while the network did may resolve now.
    func freshRecord(limit: Duration = .seconds(2)) async -> DiscoveryRecord {
        guard enabled, record.avahi == .running, let resolve = resolveAgain.withLock({ $0 }) else { return record }
        let answered = hostAnswers.subscribe()
        resolve()
        await withTaskGroup { group in
            group.addTask { _ = await answered.first { _ in true } }
            group.addTask { try? await LoopClock.shared.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
        return record
    }
}
