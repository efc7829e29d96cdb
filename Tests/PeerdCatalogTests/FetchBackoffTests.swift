import PeerdCatalog
import PeerdModel
import PeerdTestKit
import Testing

/// The schedule's retries under a failing TMDB (issue 35, point 10): a try a second or so while
/// TMDB fails now and then, the backoff once it looks down.
@Suite struct FetchBackoffTests {
    static let alice = PeerID("a1b2c3d4e5f60718293a4b5c6d7e8f90")!
    static let matrix = MovieID(603)!

    typealias Schedule = FetchSchedule<TestInstant>

    static func serverError(_ movie: MovieID = matrix) -> CatalogError {
        .upstream(.details(movie), .status(code: 500, reason: "Internal Server Error", message: nil, retryAfter: nil))
    }

    /// The waits after each of `failures` failures of one movie, each at `jitter`.
    static func waits(_ failures: Int, jitter: Double, policy: FetchPolicy = FetchPolicy()) -> [Duration] {
        var schedule = Schedule(peer: alice, policy: policy)
        schedule.reconcile(undescribed: [(matrix, true)], now: .zero)
        var now = TestInstant.zero
        var waits: [Duration] = []
        for _ in 1...failures {
            guard schedule.next(now: now) == .fetch(matrix) else { return waits }
            schedule.failed(matrix, serverError(), now: now, jitter: jitter)
            guard case .wait(let until) = schedule.next(now: now) else { return waits }
            waits.append(now.duration(to: until))
            now = until
        }
        return waits
    }

    @Test func afterTheQuickTriesATransientFailureIsRetriedEverySecondOrSoFortyTimesThenBacksOff() {
        let slowest = Self.waits(48, jitter: 1)
        #expect(slowest.prefix(3).allSatisfy { $0 == .milliseconds(600) })
        #expect(slowest.dropFirst(3).prefix(40).allSatisfy { $0 == .milliseconds(1_500) })
        #expect(Array(slowest.dropFirst(43)) == [.seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(32)])
        let quickest = Self.waits(44, jitter: 0)
        #expect(quickest.dropFirst(3).prefix(40).allSatisfy { $0 == .milliseconds(750) })
        #expect(quickest.last == .seconds(1))
    }

    /// p99 ≤ 30 s at 80% failures: even at the slowest jitter, the tries within 30 s of the first
    /// are enough that all of them fail less than once in 100 movies.
    @Test func atEightyPercentFailuresAMovieWaitsOver30SecondsLessThanOnceInAHundred() {
        let slowest = Self.waits(60, jitter: 1)
        var elapsed = Duration.zero
        var tries = 1
        for wait in slowest {
            elapsed += wait
            guard elapsed <= .seconds(30) else { break }
            tries += 1
        }
        let allFail = (0..<tries).reduce(1.0) { product, _ in product * 0.8 }
        print("tries within 30 s at the slowest jitter: \(tries); all failing at 80%: \(allFail)")
        #expect(tries >= 21)
        #expect(allFail < 0.01)
    }

    @Test func failuresOtherThanTransientOnesSkipTheSteadyTries() {
        var schedule = Schedule(peer: Self.alice)
        schedule.reconcile(undescribed: [(Self.matrix, true)], now: .zero)
        var now = TestInstant.zero
        let malformed = CatalogError.upstream(.details(Self.matrix), .malformed("no id"))
        for wait in [Duration.seconds(2), .seconds(4), .seconds(8)] {
            #expect(schedule.next(now: now) == .fetch(Self.matrix))
            schedule.failed(Self.matrix, malformed, now: now, jitter: 1)
            #expect(schedule.next(now: now) == .wait(until: now.advanced(by: wait)))
            now = now.advanced(by: wait)
        }
    }

    /// Fifty fetches of as many movies fail in a row: TMDB looks down, and a movie that was due
    /// waits as under a Retry-After, one try per backoff for all of them; its first answer ends it.
    @Test func anOutageHoldsBackEveryFetchAndTheFirstAnswerEndsIt() throws {
        var schedule = Schedule(peer: Self.alice)
        let movies = (1...60).map { MovieID($0)! }
        schedule.reconcile(undescribed: movies.map { ($0, true) }, now: .zero)
        for _ in 1...49 {
            guard case .fetch(let movie) = schedule.next(now: .zero) else { Issue.record("expected a fetch"); return }
            schedule.failed(movie, Self.serverError(movie), now: .zero, jitter: 1)
        }
        #expect(!schedule.isHeld(now: .zero))
        guard case .fetch(let fiftieth) = schedule.next(now: .zero) else { Issue.record("expected a fetch"); return }
        schedule.failed(fiftieth, Self.serverError(fiftieth), now: .zero, jitter: 1)
        #expect(schedule.isHeld(now: .zero))
        #expect(schedule.next(now: .zero) == .wait(until: .seconds(2)))
        guard case .fetch(let probe) = schedule.next(now: .seconds(2)) else { Issue.record("expected a fetch"); return }
        schedule.failed(probe, Self.serverError(probe), now: .seconds(2), jitter: 1)
        #expect(schedule.next(now: .seconds(2)) == .wait(until: .seconds(6)))
        let reason = try #require(schedule.pendingReason(MovieID(60)!, now: .seconds(2)))
        #expect(reason == "queued to fetch from TMDB in 4 s")
        schedule.answered(now: .seconds(3))
        #expect(!schedule.isHeld(now: .seconds(3)))
        #expect(schedule.next(now: .seconds(3)) != .wait(until: .seconds(6)))
    }

    @Test func anAnswerEndsARunOfFailuresAndOnlyTMDBsRetryAfterOutsideTheScheduleHoldsItBack() {
        var schedule = Schedule(peer: Self.alice, policy: FetchPolicy(outageFailures: 2))
        schedule.reconcile(undescribed: [(Self.matrix, true), (MovieID(550)!, true)], now: .zero)
        guard case .fetch(let first) = schedule.next(now: .zero) else { Issue.record("expected a fetch"); return }
        schedule.failed(first, Self.serverError(first), now: .zero, jitter: 0)
        schedule.answered(now: .zero)
        guard case .fetch(let second) = schedule.next(now: .zero) else { Issue.record("expected a fetch"); return }
        schedule.failed(second, Self.serverError(second), now: .zero, jitter: 0)
        #expect(!schedule.isHeld(now: .zero))
        let tooMany = UpstreamFailure.status(
            code: 429,
            reason: "Too Many Requests",
            message: nil,
            retryAfter: .seconds(9)
        )
        schedule.held(by: tooMany, now: .zero)
        #expect(schedule.isHeld(now: .seconds(8)) && !schedule.isHeld(now: .seconds(9)))
        schedule.held(by: .timedOut(.seconds(5)), now: .seconds(9))
        schedule.held(by: .throttled(.seconds(5)), now: .seconds(9))
        #expect(!schedule.isHeld(now: .seconds(9)))
    }
}
