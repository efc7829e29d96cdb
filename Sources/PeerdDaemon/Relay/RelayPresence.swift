import Logging
import PeerdModel
import PeerdRelay
import PeerdSync
import PeerdWire
import ServiceLifecycle
import Synchronization

/// Keeps this daemon joined to each relay the group names (permanent mode), so that peers in
/// another house can ask a relay for a session with it: one loop per relay, which joins, stays
/// (``RelayStay``: pings both ways), and when the relay drops or refuses tries again with
/// ``Backoff``. Each invitation goes to `invited`, in a task of its own.
final class RelayPresence: Service {
    let connector: RelayConnector
    let logger: Logger
    let timing: Timing
    private let invited: @Sendable (RelayInvitation, RelayURL) async -> Void
    private let work = AsyncStream.makeStream(of: Work.self)
    private let state = Mutex(State())
    private let changed = Broadcast<Void>(bufferingPolicy: .bufferingNewest(1))

    /// How often this daemon pings a joined relay, and how long a connection and a join may take.
    ///
    /// 30 s, not the 60 s the relay pings at: the latency `peerctl doctor` shows is at most that old,
    /// and a relay gone silent (a NAT that forgot the connection) is noticed within two intervals,
    /// well before the relay's own two-minute timeout; it costs one small TLS record each way.
    struct Timing: Sendable {
        var pingInterval: Duration = .seconds(30)
        var joinTimeout: Duration = .seconds(10)
        var backoff = Backoff()
    }

    private enum Work: Sendable {
        case join(url: RelayURL, generation: Int, left: AsyncStream<Void>)
        case invitation(RelayInvitation, RelayURL)
    }

    private struct Entry {
        var standing: RelayStanding
        let generation: Int
        let leave: AsyncStream<Void>.Continuation
    }

    private struct State {
        var generation = 0
        var order: [RelayURL] = []
        var entries: [RelayURL: Entry] = [:]
    }

    init(
        connector: RelayConnector,
        logger: Logger,
        timing: Timing = Timing(),
        invited: @escaping @Sendable (RelayInvitation, RelayURL) async -> Void
    ) {
        self.connector = connector
        self.logger = logger
        self.timing = timing
        self.invited = invited
    }

    /// The relays to be joined from now on: new ones start, ones no longer named are left (their
    /// connection closed), and ones named before carry on as they were.
    func use(_ relays: [RelayURL]) async {
        var unique: [RelayURL] = []
        for relay in relays where !unique.contains(relay) { unique.append(relay) }
        let (started, left) = state.withLock { state in
            var started: [Work] = []
            for relay in unique where state.entries[relay] == nil {
                state.generation += 1
                let (stream, leave) = AsyncStream.makeStream(of: Void.self)
                state.entries[relay] = Entry(
                    standing: RelayStanding(url: relay),
                    generation: state.generation,
                    leave: leave
                )
                started.append(.join(url: relay, generation: state.generation, left: stream))
            }
            let left = state.entries.filter { !unique.contains($0.key) }
            for relay in left.keys { state.entries[relay] = nil }
            state.order = unique
            return (started, left.values.map(\.leave))
        }
        for leave in left { leave.finish() }
        for join in started { work.continuation.yield(join) }
        changed.yield(())
    }

    /// Each relay in use, in the order given; `sessions` is left 0 for the caller to fill.
    func records(now: Int64) async -> [RelayRecord] {
        state.withLock { state in state.order.compactMap { state.entries[$0]?.standing.record(now: now) } }
    }

    /// The relays this daemon is joined to now: where peers can reach it.
    func joinedURLs() async -> [RelayURL] {
        state.withLock { state in state.order.filter { state.entries[$0]?.standing.state == .joined } }
    }

    /// A tick after each change of a relay's standing (joined, a new latency, retrying, left).
    func changes() -> AsyncStream<Void> {
        changed.subscribe()
    }

    func run() async throws {
        await withDiscardingTaskGroup { group in
            for await item in work.stream.cancelOnGracefulShutdown() {
                switch item {
                case .join(let url, let generation, let left):
                    group.addTask { await self.keepJoined(url, generation: generation, until: left) }
                case .invitation(let invitation, let relay):
                    group.addTask { await self.invited(invitation, relay) }
                }
            }
            // A relay keeps nothing of ours: at shutdown its connection just closes.
            group.cancelAll()
        }
        changed.finish()
    }

    /// Joins `url` and keeps it joined until it is left (`left` ends) or the service stops.
    private func keepJoined(_ url: RelayURL, generation: Int, until left: AsyncStream<Void>) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.joinLoop(url, generation: generation) }
            group.addTask { for await _ in left {} }
            _ = await group.next()
            group.cancelAll()
        }
    }

    /// The relay's standing changes, unless the relay was left (or left and named again) meanwhile.
    func update(_ url: RelayURL, generation: Int, _ change: (inout RelayStanding) -> Void) {
        let current = state.withLock { state in
            guard state.entries[url]?.generation == generation else { return false }
            change(&state.entries[url]!.standing)
            return true
        }
        if current { changed.yield(()) }
    }

    func pass(_ invitation: RelayInvitation, from relay: RelayURL) {
        work.continuation.yield(.invitation(invitation, relay))
    }
}
