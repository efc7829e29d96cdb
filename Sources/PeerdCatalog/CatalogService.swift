package import Logging
import PeerdLoops
package import PeerdModel
package import PeerdWire
import ServiceLifecycle

/// The background loop, a Service: watches the replica, follows ``FetchSchedule``, fetches, appends
/// describes (one log line each, "described a movie"), keeps what it fetched in ``DetailsCache``
/// (a restart never fetches again what is cached), and answers the control edge.
///
/// `run()` owns the client from then on: it shuts it down when it returns.
package actor CatalogService: Service {
    let client: TMDBClient
    let replica: any CatalogReplica
    let cache: DetailsCache
    let logger: Logger
    let clock = LoopClock.shared
    var schedule: FetchSchedule<ContinuousClock.Instant>
    /// Set by a change tick; the loop then reads the undescribed movies again.
    var replicaChanged = true
    let wakes = WakeSignal()
    /// How each country ranks its certifications, once read from the cache or TMDB.
    var certificationOrders: Certifications?

    package init(
        client: TMDBClient,
        replica: any CatalogReplica,
        peer: PeerID,
        cache: DetailsCache,
        logger: Logger,
        policy: FetchPolicy = FetchPolicy()
    ) {
        self.client = client
        self.replica = replica
        self.cache = cache
        self.logger = logger
        self.schedule = FetchSchedule(peer: peer, policy: policy)
    }

    package func run() async throws {
        let changes = await replica.changes()
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    for await _ in changes { await self.noteReplicaChanged() }
                }
                group.addTask { await self.loadImageBase() }
                await self.fetchLoop()
                group.cancelAll()
            }
        }
        try? await client.shutdown()
    }

    /// What `ask` finds on TMDB, asked for this peer's own user (an import's lookups are paced by
    /// the import, ``TMDBClient/RequestFor/importing``).
    package nonisolated func lookup(
        _ ask: CatalogQuery.Ask,
        for asker: TMDBClient.RequestFor = .us
    ) async throws(CatalogError) -> CatalogAnswer.Found {
        try await client.lookup(ask, for: asker)
    }

    /// Queues fetches of `movies` now (described or not) and returns how many it queued.
    package func refresh(_ movies: [MovieID]) -> Int {
        let queued = schedule.refresh(movies, now: clock.now)
        wakes.wake()
        return queued
    }

    /// Why `movie` (undescribed) has no details yet, or nil when nothing is pending for it. Details
    /// an add's check cached (``checkBeforeAdd(_:)``) are described without asking TMDB again: in
    /// the moment before that, TMDB has answered.
    package func pendingReason(_ movie: MovieID) async -> String? {
        let reason = schedule.pendingReason(movie, now: clock.now)
        if schedule.failures(of: movie) == 0, !schedule.isRefresh(movie),
            await cache.details(of: movie, language: client.settings.language) != nil
        {
            return "TMDB answered; describing it for the group now"
        }
        return reason
    }

    /// The poster's URL on TMDB's image server.
    package nonisolated func posterURL(for path: String) -> String {
        client.posterURL(for: path)
    }

    private func noteReplicaChanged() {
        replicaChanged = true
        wakes.wake()
    }

    private func fetchLoop() async {
        while !Task.isCancelled {
            await reconcileIfChanged()
            switch schedule.next(now: clock.now) {
            case .fetch(let movie): await describe(movie)
            case .wait(let until): await wakes.wait(until: until, on: clock)
            case .idle: await wakes.wait()
            }
        }
    }

    func reconcileIfChanged() async {
        guard replicaChanged else { return }
        replicaChanged = false
        let undescribed = await replica.undescribed()
        schedule.reconcile(undescribed: undescribed, now: clock.now)
    }
}
