import PeerdCatalog
import PeerdModel
import PeerdTestKit
import Testing

@Suite struct FetchScheduleTests {
    static let alice = PeerID("a1b2c3d4e5f60718293a4b5c6d7e8f90")!
    static let bob = PeerID("b7e4c2a19f0d3e5b6a7c8d9e0f1a2b3c")!
    static let carol = PeerID("c0ffee0123456789abcdef0123456789")!
    static let matrix = MovieID(603)!
    static let fightClub = MovieID(550)!

    typealias Schedule = FetchSchedule<TestInstant>

    static let serverError = CatalogError.upstream(
        .details(matrix),
        .status(code: 500, reason: "Internal Server Error", message: nil, retryAfter: nil)
    )

    @Test func aMovieAddedHereIsFetchedAtOnce() {
        var schedule = Schedule(peer: Self.alice)
        schedule.reconcile(undescribed: [(Self.matrix, true)], now: .zero)
        #expect(schedule.next(now: .zero) == .fetch(Self.matrix))
        #expect(schedule.pendingReason(Self.matrix, now: .zero) == "fetching from TMDB now")
    }

    @Test func aMovieAnotherPeerAddedWaitsItsTurnOfOneToFiveSeconds() throws {
        var schedule = Schedule(peer: Self.alice)
        schedule.reconcile(undescribed: [(Self.matrix, false)], now: .zero)
        guard case .wait(let until) = schedule.next(now: .zero) else {
            Issue.record("expected a wait")
            return
        }
        #expect(until == .zero.advanced(by: schedule.policy.turnDelay(of: Self.matrix, peer: Self.alice)))
        #expect((Duration.seconds(1)...Duration.seconds(5)).contains(until.offset))
        let reason = try #require(schedule.pendingReason(Self.matrix, now: .zero))
        print("turn:", reason)
        #expect(reason.hasPrefix("waiting for a peer with a TMDB token to describe it"))
        #expect(schedule.next(now: until) == .fetch(Self.matrix))
    }

    @Test func peersTakeTurnsByADeterministicHashOfMovieAndPeer() {
        let policy = FetchPolicy()
        let peers = [Self.alice, Self.bob, Self.carol]
        let delays = peers.map { policy.turnDelay(of: Self.matrix, peer: $0) }
        print("turn delays of movie 603:", delays)
        #expect(Set(delays).count == peers.count)
        #expect(delays == peers.map { policy.turnDelay(of: Self.matrix, peer: $0) })
        #expect(policy.turnDelay(of: Self.fightClub, peer: Self.alice) != delays[0])
        let spread = (1...200).map { policy.turnDelay(of: MovieID($0)!, peer: Self.alice) }
        #expect(spread.allSatisfy { (Duration.seconds(1)...Duration.seconds(5)).contains($0) })
        #expect(spread.min()! < .seconds(2) && spread.max()! > .seconds(4))
    }

    @Test func aDescribeFromAnotherPeerCancelsTheWaitingFetch() {
        var schedule = Schedule(peer: Self.alice)
        schedule.reconcile(undescribed: [(Self.matrix, false)], now: .zero)
        schedule.reconcile(undescribed: [], now: .seconds(0.5))
        #expect(schedule.next(now: .seconds(10)) == .idle)
        #expect(schedule.pendingReason(Self.matrix, now: .seconds(10)) == nil)
    }

    @Test func aDescribeDuringTheFetchMakesItsResultUnwanted() {
        var schedule = Schedule(peer: Self.alice)
        schedule.reconcile(undescribed: [(Self.matrix, true)], now: .zero)
        #expect(schedule.next(now: .zero) == .fetch(Self.matrix))
        schedule.reconcile(undescribed: [], now: .seconds(0.2))
        #expect(!schedule.isWanted(Self.matrix))
    }

    @Test func failuresBackOffExponentiallyWithJitterWithinBounds() {
        let policy = FetchPolicy()
        for failures in 1...12 {
            let full = min(Duration.seconds(2) * (1 << (failures - 1)), .seconds(600))
            let low = policy.backoff(afterFailures: failures, jitter: 0)
            let high = policy.backoff(afterFailures: failures, jitter: 0.999_999)
            #expect(low == full / 2)
            #expect(high <= full && high > full * 0.99)
            let some = policy.backoff(afterFailures: failures, jitter: 0.37)
            #expect(low <= some && some <= high)
        }
        #expect(policy.backoff(afterFailures: 1_000, jitter: 1) == .seconds(600))
    }

    @Test func aTransientFailureIsRetriedQuicklyThreeTimesThenSteadily() throws {
        var schedule = Schedule(peer: Self.alice)
        schedule.reconcile(undescribed: [(Self.matrix, true)], now: .zero)
        var now = TestInstant.zero
        for jitter in [0.0, 0.5, 1.0] {
            #expect(schedule.next(now: now) == .fetch(Self.matrix))
            schedule.failed(Self.matrix, Self.serverError, now: now, jitter: jitter)
            let wait = Duration.milliseconds(200) + .milliseconds(400) * jitter
            #expect(schedule.next(now: now) == .wait(until: now.advanced(by: wait)))
            now = now.advanced(by: wait)
        }
        #expect(schedule.next(now: now) == .fetch(Self.matrix))
        schedule.failed(Self.matrix, Self.serverError, now: now, jitter: 1)
        #expect(schedule.next(now: now) == .wait(until: now.advanced(by: .milliseconds(1_500))))
        let reason = try #require(schedule.pendingReason(Self.matrix, now: now))
        #expect(reason == "fetch failed 4 times (TMDB answered 500 (Internal Server Error)); next try in 2 s")
    }

    @Test func onlyTransientFailuresAreRetriedQuickly() {
        let transient: [UpstreamFailure] = [
            .status(code: 500, reason: "Internal Server Error", message: nil, retryAfter: nil),
            .status(code: 502, reason: "Bad Gateway", message: nil, retryAfter: nil),
            .timedOut(.seconds(10)), .transport("connection reset by peer"),
        ]
        let notTransient: [UpstreamFailure] = [
            .status(code: 503, reason: "Service Unavailable", message: nil, retryAfter: .seconds(5)),
            .status(code: 429, reason: "Too Many Requests", message: nil, retryAfter: .seconds(5)),
            .status(code: 404, reason: "Not Found", message: nil, retryAfter: nil),
            .status(code: 400, reason: "Bad Request", message: nil, retryAfter: nil),
            .malformed("no id"), .tooLarge(limit: 1 << 20), .throttled(.seconds(1)), .cancelled,
        ]
        #expect(transient.filter { !$0.isTransient }.isEmpty)
        #expect(notTransient.filter { $0.isTransient }.isEmpty)
        var schedule = Schedule(peer: Self.alice)
        schedule.reconcile(undescribed: [(Self.matrix, true)], now: .zero)
        _ = schedule.next(now: .zero)
        let malformed = CatalogError.upstream(.details(Self.matrix), .malformed("no id"))
        schedule.failed(Self.matrix, malformed, now: .zero, jitter: 1)
        #expect(schedule.next(now: .zero) == .wait(until: .seconds(2)))
    }

    @Test func aRefreshGivesTheQuickRetriesBack() {
        var schedule = Schedule(peer: Self.alice)
        schedule.reconcile(undescribed: [(Self.matrix, true)], now: .zero)
        var now = TestInstant.zero
        for _ in 1...4 {
            _ = schedule.next(now: now)
            schedule.failed(Self.matrix, Self.serverError, now: now, jitter: 0)
            now = now.advanced(by: .seconds(100))
        }
        #expect(schedule.refresh([Self.matrix], now: now) == 1)
        #expect(schedule.next(now: now) == .fetch(Self.matrix))
        schedule.failed(Self.matrix, Self.serverError, now: now, jitter: 0)
        #expect(schedule.next(now: now) == .wait(until: now.advanced(by: .milliseconds(200))))
    }

    @Test func aFailedFetchIsRetriedAfterTheBackoffAndSaysWhy() throws {
        var schedule = Schedule(peer: Self.alice, policy: FetchPolicy(quickRetries: 0, steadyRetries: 0))
        schedule.reconcile(undescribed: [(Self.matrix, true)], now: .zero)
        var now = TestInstant.zero
        for failure in 1...3 {
            #expect(schedule.next(now: now) == .fetch(Self.matrix))
            schedule.failed(Self.matrix, Self.serverError, now: now, jitter: 1)
            let wait = Duration.seconds(2) * (1 << (failure - 1))
            #expect(schedule.next(now: now) == .wait(until: now.advanced(by: wait)))
            now = now.advanced(by: wait)
        }
        let reason = try #require(schedule.pendingReason(Self.matrix, now: now.advanced(by: .seconds(-4))))
        print("pending:", reason)
        #expect(reason == "fetch failed 3 times (TMDB answered 500 (Internal Server Error)); next try in 4 s")
        schedule.succeeded(Self.matrix)
        #expect(schedule.pendingReason(Self.matrix, now: now) == nil)
        #expect(schedule.next(now: now) == .idle)
    }

    @Test func retryAfterIsHonouredAndHoldsBackEveryFetch() throws {
        var schedule = Schedule(peer: Self.alice)
        schedule.reconcile(undescribed: [(Self.matrix, true), (Self.fightClub, true)], now: .zero)
        let first = schedule.next(now: .zero)
        guard case .fetch(let movie) = first else {
            Issue.record("expected a fetch, got \(first)")
            return
        }
        let tooMany = CatalogError.upstream(
            .details(movie),
            .status(code: 429, reason: "Too Many Requests", message: nil, retryAfter: .seconds(30))
        )
        schedule.failed(movie, tooMany, now: .zero, jitter: 0)
        #expect(schedule.next(now: .seconds(1)) == .wait(until: .seconds(30)))
        let other = movie == Self.matrix ? Self.fightClub : Self.matrix
        #expect(schedule.pendingReason(other, now: .seconds(10)) == "queued to fetch from TMDB in 20 s")
        let reason = try #require(schedule.pendingReason(movie, now: .seconds(10)))
        print("pending:", reason)
        #expect(reason.contains("asked to wait 30 s") && reason.hasSuffix("next try in 20 s"))
        #expect(schedule.next(now: .seconds(30)) != .idle)
    }

    @Test func aMissingMovieIsNotRetriedAndSaysToRemoveIt() throws {
        var schedule = Schedule(peer: Self.alice)
        schedule.reconcile(undescribed: [(Self.matrix, true)], now: .zero)
        _ = schedule.next(now: .zero)
        let notFound = CatalogError.upstream(
            .details(Self.matrix),
            .status(
                code: 404,
                reason: "Not Found",
                message: "The resource you requested could not be found.",
                retryAfter: nil
            )
        )
        schedule.failed(Self.matrix, notFound, now: .zero, jitter: 0.5)
        #expect(schedule.next(now: .seconds(100_000)) == .idle)
        let reason = try #require(schedule.pendingReason(Self.matrix, now: .zero))
        print("pending:", reason)
        #expect(
            reason == "TMDB has no movie 603 (it answered 404), so no details will come: "
                + "take it off the list with peerctl remove 603"
        )
        #expect(!reason.contains("refresh"))
        #expect(schedule.refresh([Self.matrix], now: .seconds(5)) == 1)
        #expect(schedule.next(now: .seconds(5)) == .fetch(Self.matrix))
    }

    @Test func aRefreshQueuesADescribedMovieAndSurvivesReconciling() {
        var schedule = Schedule(peer: Self.alice)
        #expect(schedule.refresh([Self.matrix, Self.fightClub, Self.matrix], now: .zero) == 2)
        schedule.reconcile(undescribed: [], now: .zero)
        #expect(schedule.isRefresh(Self.matrix))
        #expect(schedule.pendingReason(Self.fightClub, now: .zero) == "refresh queued; fetching from TMDB now")
        #expect(schedule.next(now: .zero) == .fetch(Self.fightClub))
        #expect(schedule.next(now: .zero) == .fetch(Self.matrix))
        #expect(schedule.next(now: .zero) == .idle)
    }

    @Test func threeTokenHoldersFetchANewMovieOnceWhenTheFirstDescribeArrivesWithinTheirTurns() {
        var schedules = [Self.alice, Self.bob, Self.carol].map { Schedule(peer: $0) }
        for index in schedules.indices {
            schedules[index].reconcile(undescribed: [(Self.matrix, false)], now: .zero)
        }
        // The fetch, the describe and its replication take 300 ms.
        var describedAt: TestInstant?
        var requests = 0
        for tick in 0...200 {
            let now = TestInstant.zero.advanced(by: .milliseconds(50 * tick))
            for index in schedules.indices {
                if let describedAt, now >= describedAt { schedules[index].reconcile(undescribed: [], now: now) }
                guard schedules[index].next(now: now) == .fetch(Self.matrix) else { continue }
                requests += 1
                schedules[index].succeeded(Self.matrix)
                describedAt = describedAt ?? now.advanced(by: .milliseconds(300))
            }
        }
        #expect(requests == 1)
    }
}
