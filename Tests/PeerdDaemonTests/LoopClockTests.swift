import PeerdLoops
import Testing

/// `LoopClock`: sleeps as NIO timers (PeerdMain says why), with `Task.sleep`'s contract.
@Suite("LoopClock")
struct LoopClockTests {
    @Test func aSleepReturnsAtItsDeadlineOrLater() async throws {
        let clock = LoopClock.shared
        let deadline = clock.now + .milliseconds(30)
        try await clock.sleep(until: deadline)
        #expect(clock.now >= deadline)
        let start = clock.now
        try await clock.sleep(for: .milliseconds(20))
        #expect(start.duration(to: clock.now) >= .milliseconds(20))
    }

    @Test func aCancelledSleepThrowsCancellationAtOnce() async throws {
        let sleeper = Task { try await LoopClock.shared.sleep(for: .seconds(3600)) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    @Test func aSleepCancelledWhileItWaitsEnds() async throws {
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let sleeper = Task {
            start.yield()
            try await LoopClock.shared.sleep(for: .seconds(3600))
        }
        _ = await started.first { _ in true }
        // Time for the sleeper to reach its timer; were it later, the test would pass on the path above.
        try await LoopClock.shared.sleep(for: .milliseconds(20))
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    @Test func aDeadlineInThePastReturnsAtOnce() async throws {
        let clock = LoopClock.shared
        try await clock.sleep(until: clock.now - .seconds(1))
    }
}
