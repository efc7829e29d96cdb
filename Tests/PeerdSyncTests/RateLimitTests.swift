import PeerdSync
import PeerdTestKit
import PeerdWire
import Testing

typealias Limit = RateLimit<TestInstant>

private let zero = TestInstant.zero

/// Sends `count` frames of `bytes` bytes, one every `every` from `start`; returns the decisions.
private func send(
    _ count: Int,
    of bytes: Int,
    every: Duration,
    from start: TestInstant = zero,
    to limit: inout Limit
) -> [Limit.Decision] {
    (0..<count).map { limit.admit(bytes: bytes, now: start.advanced(by: every * $0)) }
}

@Suite("RateLimit")
struct RateLimitTests {
    private static let small = Limit.Configuration(
        framesPerSecond: 10,
        frameBurst: 5,
        bytesPerSecond: 1_000,
        byteBurst: 1_000
    )

    @Test func aBurstUpToTheLimitIsAdmittedAtOnceAndTheNextFrameIsNot() {
        var limit = Limit(configuration: Self.small)
        let decisions = send(6, of: 10, every: .zero, to: &limit)
        #expect(decisions == Array(repeating: .admitted, count: 5) + [.tooManyFrames])
    }

    @Test func theDefaultsStopAFloodOfTenThousandTinyFramesASecondWithinAQuarterSecond() {
        var limit = Limit()
        let decisions = send(10_000, of: 19, every: .microseconds(100), to: &limit)
        let firstRefusal = decisions.firstIndex(of: .tooManyFrames)
        // 2,000 of burst, then 8,000 a second more than the refill: refused from the 2,500th frame, 0.25 s in.
        #expect(firstRefusal == 2_499)
        // Over the whole second: the burst plus one second of refill, whatever the flood sent.
        let admitted = decisions.filter { $0 == .admitted }.count
        #expect((3_999...4_001).contains(admitted))
        #expect(decisions.allSatisfy { $0 == .admitted || $0 == .tooManyFrames })
    }

    @Test func theDefaultsNeverThrottleACatchUpOfFullFramesBackToBack() {
        // 1 MiB frames at 400 MiB/s for 10 s: a loopback catch-up faster than any measured.
        var limit = Limit()
        let full = send(4_000, of: Frame.maxFrameLength, every: .milliseconds(2.5), to: &limit)
        #expect(full.allSatisfy { $0 == .admitted })
        // Catch-up as the sender packs it: 500 operations, about 90 KB, a frame; 1,500 frames a second.
        var packed = Limit()
        let decisions = send(15_000, of: 90_000, every: .seconds(1) / 1_500, to: &packed)
        #expect(decisions.allSatisfy { $0 == .admitted })
        #expect(Limit.Configuration().byteBurst >= Frame.maxFrameLength)
    }

    @Test func aPeerOverTheByteRateIsRefusedForBytes() {
        var limit = Limit(configuration: Self.small)
        #expect(send(3, of: 400, every: .zero, to: &limit) == [.admitted, .admitted, .tooManyBytes])
        // The refused frame took no frame token: the 3 frames left in the burst still pass when small.
        #expect(send(4, of: 10, every: .zero, to: &limit) == [.admitted, .admitted, .admitted, .tooManyFrames])
    }

    @Test func aFrameLargerThanTheWholeByteBurstIsRefusedAndTakesNothing() {
        var limit = Limit(configuration: Self.small)
        #expect(limit.admit(bytes: 1_001, now: zero) == .tooManyBytes)
        #expect(limit.admit(bytes: Int.max, now: zero) == .tooManyBytes)
        #expect(limit.admit(bytes: 1_000, now: zero) == .admitted)
    }

    @Test func spentTokensComeBackAtTheRate() {
        var limit = Limit()
        #expect(send(2_000, of: 100, every: .zero, to: &limit).allSatisfy { $0 == .admitted })
        #expect(limit.admit(bytes: 100, now: zero) == .tooManyFrames)
        // Half a second at 2,000 frames a second: exactly 1,000 frames' worth.
        let later = zero.advanced(by: .milliseconds(500))
        let decisions = send(1_001, of: 100, every: .zero, from: later, to: &limit)
        #expect(decisions.filter { $0 == .admitted }.count == 1_000)
        #expect(decisions.last == .tooManyFrames)
        // Refused frames took nothing: one interval later, exactly one more.
        let oneInterval = later.advanced(by: .microseconds(500))
        #expect(send(2, of: 100, every: .zero, from: oneInterval, to: &limit) == [.admitted, .tooManyFrames])
    }

    @Test func aLongPauseRefillsToTheBurstAndNoMore() {
        var limit = Limit(configuration: Self.small)
        _ = send(5, of: 10, every: .zero, to: &limit)
        let muchLater = zero.advanced(by: .seconds(3_600))
        #expect(send(6, of: 10, every: .zero, from: muchLater, to: &limit).filter { $0 == .admitted }.count == 5)
    }

    @Test func gapsOfAnyLengthNeitherOverflowNorOverfill() {
        var limit = Limit()
        _ = send(2_000, of: Frame.maxFrameLength, every: .zero, to: &limit)
        let eons = zero.advanced(by: .seconds(Int64.max / 2))
        let decisions = send(2_001, of: 1, every: .zero, from: eons, to: &limit)
        #expect(decisions.filter { $0 == .admitted }.count == 2_000)
        #expect(decisions.last == .tooManyFrames)
        let further = eons.advanced(by: .seconds(Int64.max / 4))
        #expect(limit.admit(bytes: 64 * Frame.maxFrameLength, now: further) == .admitted)
    }

    @Test func theExplanationNamesTheLimitThatWasHit() {
        let limit = Limit()
        #expect(limit.explanation(of: .tooManyFrames).contains("2000 frames a second"))
        #expect(limit.explanation(of: .tooManyBytes).contains("bytes a second"))
    }
}
