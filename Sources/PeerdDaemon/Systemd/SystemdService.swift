import Logging
import NIOCore
import PeerdLoops
import ServiceLifecycle

/// Keeps the service manager informed while peerd runs: `READY=1` when it starts, `STATUS=` when the
/// counts change, `WATCHDOG=1` at half the watchdog timeout, `STOPPING=1` on graceful shutdown.
///
/// Why `READY=1` is true when it is sent: this service is built only after the store is open and
/// replayed and both sockets are bound and listening, and the service group installs its SIGTERM
/// handler before it runs any service. A connection that arrives before an accept loop is running
/// waits in the listen backlog, so `peerctl` works as soon as systemd calls the unit active.
///
/// It is the last service of the group, so the first to stop: `STOPPING=1` goes out before the
/// other services wind down.
final class SystemdService: Service {
    /// The numbers `STATUS=` shows.
    struct Counts: Equatable, Sendable {
        var peers: Int
        var movies: Int

        var status: String {
            "\(peers) \(peers == 1 ? "peer" : "peers"), \(movies) \(movies == 1 ? "movie" : "movies")"
        }
    }

    private let notifier: SystemdNotifier
    private let statusInterval: Duration
    private let eventLoop: any EventLoop
    private let watch: @Sendable (_ ring: @escaping @Sendable () async -> Void) async -> Void
    private let counts: @Sendable () async -> Counts
    private let logger: Logger

    /// `watch` runs as long as the service and calls `ring` whenever the counts may have changed (a
    /// commit, a session up or down); `ring` returns `statusInterval` later, so a busy list (a
    /// catch-up commits all the time) wakes a watcher that often, not at each commit, and what it
    /// missed meanwhile waits in its stream. `counts` is asked then, at most every
    /// `statusInterval`, and before each watchdog ping, so a stuck replica or directory actor stops
    /// the pings and lets systemd restart peerd. Nothing else wakes it: at rest it sleeps until the
    /// next ping, on `eventLoop`'s timer.
    init(
        notifier: SystemdNotifier,
        statusInterval: Duration = .seconds(2),
        eventLoop: any EventLoop,
        logger: Logger,
        watch: @escaping @Sendable (_ ring: @escaping @Sendable () async -> Void) async -> Void,
        counts: @escaping @Sendable () async -> Counts
    ) {
        self.notifier = notifier
        self.statusInterval = statusInterval
        self.eventLoop = eventLoop
        self.watch = watch
        self.counts = counts
        self.logger = logger
    }

    /// Runs on `eventLoop` (``EventLoopTaskExecutor``): a watchdog ping then wakes that one thread.
    func run() async throws {
        await withTaskExecutorPreference(EventLoopTaskExecutor(eventLoop)) { await serve() }
    }

    private func serve() async {
        var shown = await counts()
        var reachable = send(["READY=1", "STATUS=\(shown.status)"])
        let pingInterval = notifier.watchdogTimeout.map { $0 / 2 }
        var nextPing = pingInterval.map { ContinuousClock.now + $0 }
        let (rings, ring) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        await withDiscardingTaskGroup { group in
            let interval = statusInterval
            group.addTask {
                await self.watch {
                    ring.yield()
                    try? await LoopClock.shared.sleep(for: interval)
                }
            }
            // Graceful shutdown ends the doorbell, and the loop with it, without waiting for a ring.
            await withGracefulShutdownHandler {
                var doorbell = rings.makeAsyncIterator()
                while await wait(for: &doorbell, until: nextPing, ring: ring) {
                    let now = ContinuousClock.now
                    // Asked before every ping too: if the replica or the directory stops answering,
                    // the pings stop and systemd restarts peerd.
                    let current = await counts()
                    var message = current == shown ? [] : ["STATUS=\(current.status)"]
                    if let interval = pingInterval, let due = nextPing, now >= due {
                        message.append("WATCHDOG=1")
                        nextPing = now + interval
                    }
                    if !message.isEmpty { reachable = send(message, warn: reachable) }
                    // A status that didn't go out is sent again at the next wake.
                    if reachable { shown = current }
                    // A busy list (a catch-up) changes all the time: its counts are shown this often.
                    if message.contains(where: { $0.hasPrefix("STATUS=") }) {
                        let pause = self.statusInterval
                        _ = try? await cancelWhenGracefulShutdown { try await LoopClock.shared.sleep(for: pause) }
                    }
                }
            } onGracefulShutdown: {
                ring.finish()
            }
            group.cancelAll()
        }
        send(["STOPPING=1", "STATUS=stopping"], warn: reachable)
    }

    /// Returns at the next ring or at `deadline` (true), or once the doorbell has ended (false).
    private func wait(
        for doorbell: inout AsyncStream<Void>.AsyncIterator,
        until deadline: ContinuousClock.Instant?,
        ring: AsyncStream<Void>.Continuation
    ) async -> Bool {
        let timer = deadline.map { deadline in
            eventLoop.scheduleTask(in: TimeAmount(max(.zero, ContinuousClock.now.duration(to: deadline)))) {
                ring.yield()
            }
        }
        defer { timer?.cancel() }
        return await doorbell.next() != nil
    }

    /// Whether the message went out; a failure is logged once until a send works again.
    @discardableResult
    private func send(_ message: [String], warn: Bool = true) -> Bool {
        do {
            try notifier.send(message)
            return true
        } catch {
            if warn { logger.warning("cannot reach systemd", metadata: ["error": "\(error)"]) }
            return false
        }
    }
}
