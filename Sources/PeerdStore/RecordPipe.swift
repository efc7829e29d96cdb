import Dispatch
package import PeerdModel
import Synchronization

/// Carries the operations one thread reads from the log (checksums checked, JSON parsed) to the
/// thread that replays them into the replica, a batch at a time, so that a cold start uses two
/// cores: reading a log of 100,000 movies and 200,000 marks was 45 % of the start's CPU time and
/// replaying it 55 % (perf), one after the other for each record.
///
/// Hand-written because what the dependencies offer between two threads is asynchronous
/// (`NIOThreadPool`, `AsyncStream`), and the replica is replayed by a synchronous caller: this is a
/// bounded queue of ``capacity`` batches, a mutex and two semaphores.
final class RecordPipe: Sendable {
    typealias Batch = [(operation: Operation, offset: UInt64)]

    /// Operations per batch: about 200 KB of them in flight per batch at most.
    static let batchSize = 1_024
    /// Batches the reader may be ahead of the replay.
    static let capacity = 4

    enum Next {
        case batch(Batch)
        /// The reader is done: every batch was taken, and this is what it found.
        case end(Result<LogRecord.Scan, StoreError>)
    }

    private let queue = Mutex<(batches: [Batch], end: Result<LogRecord.Scan, StoreError>?)>(([], nil))
    /// One signal per batch sent and one for the end.
    private let filled = DispatchSemaphore(value: 0)
    private let room = DispatchSemaphore(value: RecordPipe.capacity)

    /// Sends `batch`, once there is room for it.
    func send(_ batch: Batch) {
        room.wait()
        queue.withLock { $0.batches.append(batch) }
        filled.signal()
    }

    /// Says the reader is done, after its last batch.
    func finish(_ result: Result<LogRecord.Scan, StoreError>) {
        queue.withLock { $0.end = result }
        filled.signal()
    }

    /// The next batch, in order, or the end once every batch was taken; waits for either.
    func receive() -> Next {
        filled.wait()
        let next = queue.withLock { queue -> Next in
            guard queue.batches.isEmpty else { return .batch(queue.batches.removeFirst()) }
            return .end(queue.end!)
        }
        if case .batch = next { room.signal() }
        return next
    }
}
