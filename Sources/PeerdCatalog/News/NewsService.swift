package import Logging
import PeerdLoops
package import PeerdModel
import ServiceLifecycle

/// The news checks, a Service on a token holder (proto/PEER.md, "News"): follows ``NewsSchedule``,
/// asks TMDB where each due movie streams in the group's region, and when something changed for
/// the group's services, appends one `news` operation ("reported news", a log line each). The
/// group (its wanted movies and its connected token holders) is read again when the list changes,
/// at most once a second, and at least once a minute, so a holder that leaves hands its movies to
/// the others within a minute.
package actor NewsService: Service {
    let client: TMDBClient
    let replica: any NewsReplica
    let checks: NewsChecks
    let logger: Logger
    var schedule: NewsSchedule
    let wakes = WakeSignal()
    var replicaChanged = true
    /// How long the loop sleeps at most before it looks at the group again, and how long at least
    /// between two looks.
    static let longestNap: Int64 = 60_000
    static let shortestLook: Int64 = 1_000

    package init(
        client: TMDBClient,
        replica: any NewsReplica,
        peer: PeerID,
        interval: Duration,
        checks: NewsChecks,
        logger: Logger
    ) {
        self.client = client
        self.replica = replica
        self.checks = checks
        self.logger = logger
        self.schedule = NewsSchedule(peer: peer, interval: interval)
    }

    package func run() async throws {
        let changes = await replica.changes()
        schedule = NewsSchedule(
            peer: schedule.peer,
            interval: .milliseconds(schedule.interval),
            checked: await checks.load()
        )
        let every = FetchWait.text(.milliseconds(schedule.interval))
        logger.info("checking wanted movies for news", metadata: ["every": "\(every)"])
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    for await _ in changes { await self.noteReplicaChanged() }
                }
                await self.checkLoop()
                group.cancelAll()
            }
        }
    }

    private func noteReplicaChanged() {
        replicaChanged = true
        wakes.wake()
    }

    private func checkLoop() async {
        var looked: Int64 = -Self.longestNap
        while !Task.isCancelled {
            let now = Wallclock.millis()
            // The group is read again at most once a second (a catch-up ticks often), and at
            // least once a minute (the connected holders change without a tick).
            if replicaChanged && now - looked >= Self.shortestLook || now - looked >= Self.longestNap {
                replicaChanged = false
                looked = now
                let movies = await replica.settings() == nil ? [] : await replica.watched()
                schedule.reconcile(wanted: movies, holders: await replica.holders(), now: now)
            }
            let lookAgain = looked + (replicaChanged ? Self.shortestLook : Self.longestNap)
            switch schedule.next(now: now) {
            case .check(let movie): await check(movie)
            case .wait(let until): await nap(until: min(until, lookAgain))
            case .idle: await nap(until: lookAgain)
            }
        }
    }

    private func nap(until: Int64) async {
        let wait = Duration.milliseconds(max(until - Wallclock.millis(), 1))
        let clock = LoopClock.shared
        await wakes.wait(until: clock.now.advanced(by: wait), on: clock)
    }
}
