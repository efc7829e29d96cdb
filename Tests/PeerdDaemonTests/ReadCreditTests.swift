import Synchronization
import Testing

@testable import PeerdDaemon

@Suite("Reading runs at most a few frames ahead of the replica")
struct ReadCreditTests {
    /// Counts the frames the reader got past: what it could read next.
    final class Reader: Sendable {
        let read = Atomic<Int>(0)
    }

    @Test func theReaderWaitsAtTheLimitUntilAFrameIsDone() async throws {
        let credit = ReadCredit(limit: 3)
        let reader = Reader()
        let task = Task {
            for _ in 0..<5 {
                await credit.handedOver()
                reader.read.add(1, ordering: .relaxed)
            }
        }
        // Two frames in flight pass at once; the third one waits.
        #expect(await eventually { reader.read.load(ordering: .relaxed) == 2 })
        try await Task.sleep(for: .milliseconds(100))
        #expect(reader.read.load(ordering: .relaxed) == 2)
        // Each frame done lets exactly one more through.
        for read in 3...5 {
            credit.done()
            #expect(await eventually { reader.read.load(ordering: .relaxed) == read })
        }
        await task.value
    }

    @Test(.timeLimit(.minutes(1))) func aCancelledReaderStopsWaiting() async {
        let credit = ReadCredit(limit: 1)
        let task = Task { await credit.handedOver() }
        try? await Task.sleep(for: .milliseconds(50))
        task.cancel()
        await task.value  // returns: a hang here fails the test by its time limit
        await credit.handedOver()  // and so does every later wait of that reader
    }

    private func eventually(_ condition: @Sendable () -> Bool) async -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }
}
