import Logging
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
    private let counts: @Sendable () async -> Counts
    private let logger: Logger

    /// `counts` is asked every `statusInterval` and before each watchdog ping, so a stuck replica or
    /// directory actor stops the pings and lets systemd restart peerd.
    init(
        notifier: SystemdNotifier,
        statusInterval: Duration = .seconds(2),
        logger: Logger,
        counts: @escaping @Sendable () async -> Counts
    ) {
        self.notifier = notifier
        self.statusInterval = statusInterval
        self.counts = counts
        self.logger = logger
    }

    func run() async throws {
        var shown = await counts()
        var reachable = send(["READY=1", "STATUS=\(shown.status)"])
        let clock = ContinuousClock()
        let pingInterval = notifier.watchdogTimeout.map { $0 / 2 }
        var nextStatus = clock.now + statusInterval
        var nextPing = pingInterval.map { clock.now + $0 }
        while true {
            let wake = min(nextStatus, nextPing ?? nextStatus)
            // Ends the loop on graceful shutdown (or cancellation) without waiting for the next tick.
            guard (try? await cancelWhenGracefulShutdown({ try await Task.sleep(until: wake, clock: clock) })) != nil
            else { break }
            let now = clock.now
            // Asked before every ping too: if the replica or the directory stops answering, the pings
            // stop and systemd restarts peerd.
            let current = await counts()
            var message = current == shown ? [] : ["STATUS=\(current.status)"]
            shown = current
            if now >= nextStatus { nextStatus = now + statusInterval }
            if let interval = pingInterval, let due = nextPing, now >= due {
                message.append("WATCHDOG=1")
                nextPing = now + interval
            }
            if !message.isEmpty { reachable = send(message, warn: reachable) }
        }
        send(["STOPPING=1", "STATUS=stopping"], warn: reachable)
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
