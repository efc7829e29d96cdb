import PeerdModel
import PeerdTestKit
import Testing

@Suite struct TokenBucketTests {
    @Test func aBurstGoesAtOnceThenRequestsWaitTheirInterval() {
        var bucket = TokenBucket<TestInstant>(interval: .milliseconds(250), burst: 3)
        let now = TestInstant.zero
        let waits = (0..<6).map { _ in bucket.reserve(now: now, maxWait: .seconds(10)) }
        #expect(waits == [.zero, .zero, .zero, .milliseconds(250), .milliseconds(500), .milliseconds(750)])
    }

    @Test func aWaitOverTheLimitTakesNoSlot() {
        var bucket = TokenBucket<TestInstant>(interval: .seconds(1), burst: 1)
        #expect(bucket.reserve(now: .zero, maxWait: .zero) == .zero)
        #expect(bucket.reserve(now: .zero, maxWait: .milliseconds(500)) == nil)
        #expect(bucket.waitForSlot(now: .zero) == .seconds(1))
        #expect(bucket.reserve(now: .seconds(1), maxWait: .zero) == .zero)
    }

    @Test func quietTimeRefillsTheBurst() {
        var bucket = TokenBucket<TestInstant>(interval: .milliseconds(500), burst: 2)
        _ = bucket.reserve(now: .zero, maxWait: .zero)
        _ = bucket.reserve(now: .zero, maxWait: .zero)
        #expect(bucket.reserve(now: .zero, maxWait: .zero) == nil)
        #expect(bucket.reserve(now: .seconds(10), maxWait: .zero) == .zero)
        #expect(bucket.reserve(now: .seconds(10), maxWait: .zero) == .zero)
    }

    @Test func aCostTakesThatManyUnitsAndARefusedOneTakesNothing() {
        var bucket = TokenBucket<TestInstant>(rate: 1_000, burst: 1_000)
        let taken = [400, 400, 400].map { bucket.take($0, now: .zero) }
        #expect(taken == [true, true, false])
        #expect(bucket.waitForSlot(400, now: .zero) == .milliseconds(200))
        let rest = [200, 1].map { bucket.take($0, now: .zero) }
        #expect(rest == [true, false])
        let later = bucket.take(1, now: TestInstant(offset: .milliseconds(1)))
        #expect(later)
    }

    @Test func aCostOverTheWholeBurstNeverFitsAndTakesNothing() {
        var bucket = TokenBucket<TestInstant>(rate: 1_000, burst: 1_000)
        let taken = [1_001, Int.max].map { bucket.take($0, now: .zero) }
        #expect(taken == [false, false])
        #expect(bucket.isFull(now: .zero))
        let whole = bucket.take(1_000, now: .zero)
        #expect(whole)
    }

    @Test func aFullBucketIsForgettable() {
        var bucket = TokenBucket<TestInstant>(interval: .seconds(1), burst: 2)
        #expect(bucket.isFull(now: .zero))
        let taken = bucket.take(now: .zero)
        #expect(taken)
        #expect(!bucket.isFull(now: TestInstant(offset: .milliseconds(999))))
        #expect(bucket.isFull(now: .seconds(1)))
    }
}
