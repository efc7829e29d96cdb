package import Logging
package import PeerdModel
package import PeerdWire
import ServiceLifecycle

/// Where a token holder answers the catalog queries of peers without one (proto/PEER.md, "Catalog
/// queries"). A Service: the queries it takes run in its task group, at most
/// ``Limits/running`` at once and ``Limits/runningPerAsker`` for one asker, and each asker has a
/// rate (``Limits/perAsker``). What is over a bound is answered at once with `rate-limited`, so
/// nothing queues here. TMDB requests made for a peer only take a free slot of the rate cap and
/// leave half of its burst to this peer's own describes (``TMDBClient/RequestFor``). Answers are
/// kept for ``Limits/cacheLife``, so the group asking the same page costs one request.
package actor QueryDesk: Service {
    package struct Limits: Sendable {
        /// Each asker's rate: one query per `interval` on average, in bursts of up to `burst`.
        package var perAsker = (interval: Duration.milliseconds(500), burst: 10)
        package var running = 4
        package var runningPerAsker = 2
        package var cacheLife = Duration.seconds(600)
        package var cacheEntries = 256

        package init() {}
    }

    /// A query to run, and where its answer goes.
    struct Job: Sendable {
        var query: CatalogQuery
        var asker: PeerID
        var reply: @Sendable (CatalogAnswer) -> Void
    }

    let client: TMDBClient
    let limits: Limits
    let logger: Logger
    private let clock = ContinuousClock()
    private var rates: [PeerID: TokenBucket<ContinuousClock.Instant>] = [:]
    private var running: [PeerID: Int] = [:]
    private var answers: AnswerCache<ContinuousClock.Instant>
    private let jobs: AsyncStream<Job>
    private let submit: AsyncStream<Job>.Continuation

    package init(client: TMDBClient, limits: Limits = Limits(), logger: Logger) {
        self.client = client
        self.limits = limits
        self.logger = logger
        answers = AnswerCache(capacity: limits.cacheEntries)
        (jobs, submit) = AsyncStream.makeStream(of: Job.self)
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                for await job in self.jobs {
                    group.addTask { await self.answer(job) }
                }
            }
        }
    }

    /// Takes `asker`'s query: its answer goes to `reply`, at once when it is cached or over a bound.
    package func take(
        _ query: CatalogQuery,
        from asker: PeerID,
        reply: @escaping @Sendable (CatalogAnswer) -> Void
    ) {
        let now = clock.now
        if let reason = query.ask.invalidReason {
            return reply(.init(id: query.id, outcome: .failure(WireError(.badRequest, reason))))
        }
        if let cached = answers.answer(for: query.ask, now: now) {
            return reply(.init(id: query.id, outcome: .success(cached)))
        }
        if let refusal = admit(asker, now: now) {
            logger.debug("refused a peer's query", metadata: ["peer": "\(asker.short)", "reason": "\(refusal)"])
            return reply(.init(id: query.id, outcome: .failure(refusal)))
        }
        running[asker, default: 0] += 1
        submit.yield(Job(query: query, asker: asker, reply: reply))
    }

    /// Nil when the query may run now; else why not.
    private func admit(_ asker: PeerID, now: ContinuousClock.Instant) -> WireError? {
        var rate = rates[asker] ?? TokenBucket(interval: limits.perAsker.interval, burst: limits.perAsker.burst)
        defer { rates[asker] = rate }
        guard running.values.reduce(0, +) < limits.running, running[asker, default: 0] < limits.runningPerAsker
        else {
            return WireError(.rateLimited, "this peer is answering as many queries as it takes at once; try again")
        }
        guard rate.reserve(now: now, maxWait: .zero) != nil else {
            let wait = rate.waitForSlot(now: now)
            return WireError(.rateLimited, "too many queries from one peer; try again in \(FetchWait.text(wait))")
        }
        return nil
    }

    private func answer(_ job: Job) async {
        let outcome: Result<CatalogAnswer.Found, WireError>
        do {
            outcome = .success(try await client.lookup(job.query.ask, for: .peer))
        } catch {
            outcome = .failure(Self.wireError(error))
        }
        finished(job, outcome)
    }

    private func finished(_ job: Job, _ outcome: Result<CatalogAnswer.Found, WireError>) {
        running[job.asker, default: 1] -= 1
        if running[job.asker] == 0 { running[job.asker] = nil }
        if case .success(let result) = outcome {
            answers.keep(result, for: job.query.ask, until: clock.now + limits.cacheLife)
        }
        job.reply(CatalogAnswer(id: job.query.id, outcome: outcome))
    }

    /// A request that found no free slot of the rate cap is this peer being busy, not TMDB failing.
    private static func wireError(_ error: CatalogError) -> WireError {
        if case .unanswerable(_, let reason) = error { return WireError(.badRequest, reason) }
        if case .throttled(let wait) = error.upstreamFailure {
            return WireError(
                .rateLimited,
                "this peer's TMDB requests are all in use; try again in \(FetchWait.text(wait))"
            )
        }
        return WireError(.upstreamFailed, "\(error)")
    }
}

/// The answers a ``QueryDesk`` gave lately, each until it expires; the oldest goes first when full.
struct AnswerCache<Instant: InstantProtocol>: Sendable {
    let capacity: Int
    private var entries: [CatalogQuery.Ask: (result: CatalogAnswer.Found, until: Instant)] = [:]
    private var order: [CatalogQuery.Ask] = []

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    func answer(for ask: CatalogQuery.Ask, now: Instant) -> CatalogAnswer.Found? {
        guard let entry = entries[ask], now < entry.until else { return nil }
        return entry.result
    }

    mutating func keep(_ result: CatalogAnswer.Found, for ask: CatalogQuery.Ask, until: Instant) {
        if entries.updateValue((result, until), forKey: ask) == nil { order.append(ask) }
        while order.count > capacity { entries[order.removeFirst()] = nil }
    }
}
