package import PeerdModel
import Synchronization

/// What the guest door remembers between requests: the capability of each pick this peer opened,
/// and the guests' rate limits. Shared by the door, which refreshes the picks as they change, and
/// every request it answers.
package final class GuestLedger: Sendable {
    package let key: GuestKey
    private let picks = Mutex<[(capability: String, pick: OwnPick)]>([])
    private let limits = Mutex(GuestLimits<ContinuousClock.Instant>())

    package init(key: GuestKey) { self.key = key }

    /// The picks this peer opened, as they are now.
    package func update(_ own: [OwnPick]) {
        let entries = own.map { (capability: key.capability(for: $0.id), pick: $0) }
        picks.withLock { $0 = entries }
    }

    package var anyOpen: Bool { picks.withLock { $0.contains { $0.pick.open } } }

    package func isOpen(_ pick: PickOnList) -> Bool {
        picks.withLock { $0.contains { $0.pick.id == pick && $0.pick.open } }
    }

    /// The pick `capability` opens, compared with each in constant time (a handful of picks).
    package func pick(opening capability: Substring) -> OwnPick? {
        picks.withLock { entries in
            entries.first { GuestKey.constantTimeEqual($0.capability, capability) }?.pick
        }
    }

    package func admit(_ kind: GuestLimits<ContinuousClock.Instant>.Kind, from address: String) -> Duration? {
        limits.withLock { $0.admit(kind, from: address, now: .now) }
    }

    package func admitVote(by guest: Pick.Guest) -> Duration? {
        limits.withLock { $0.admitVote(by: guest, now: .now) }
    }

    package func openStream(from address: String) -> Bool { limits.withLock { $0.openStream(from: address) } }

    package func closeStream(from address: String) { limits.withLock { $0.closeStream(from: address) } }
}
