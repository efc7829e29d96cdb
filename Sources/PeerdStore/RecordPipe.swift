package import PeerdModel
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Carries the operations one thread reads from the log (checksums checked, JSON parsed) to the
/// thread that replays them into the replica, a batch at a time, so that a cold start uses two
/// cores: reading a log of 100,000 movies and 200,000 marks was 45 % of the start's CPU time and
/// replaying it 55 % (perf), one after the other for each record.
///
/// Hand-written, on a thread and semaphores of POSIX's: what the dependencies offer between two
/// threads is asynchronous (`NIOThreadPool`, `AsyncStream`) while the replay is synchronous, and
/// libdispatch's worker pool, once used, wakes the process every second for good
/// (docs/ARCHITECTURE.md, "Threads"). A bounded queue of ``capacity`` batches.
final class RecordPipe: @unchecked Sendable {
    // @unchecked: the semaphores are POSIX's, made for use from any thread; the queue is a Mutex.
    typealias Batch = [(operation: Operation, offset: UInt64)]

    /// Operations per batch: about 200 KB of them in flight per batch at most.
    static let batchSize = 1_024
    /// Batches the reader may be ahead of the replay.
    static let capacity: UInt32 = 4

    enum Next {
        case batch(Batch)
        /// The reader is done: every batch was taken, and this is what it found.
        case end(Result<LogRecord.Scan, StoreError>)
    }

    private let queue = Mutex<(batches: [Batch], end: Result<LogRecord.Scan, StoreError>?)>(([], nil))
    /// One post per batch sent and one for the end.
    private let filled = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    private let room = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

    init() {
        sem_init(filled, 0, 0)
        sem_init(room, 0, Self.capacity)
    }

    deinit {
        sem_destroy(filled)
        sem_destroy(room)
        filled.deallocate()
        room.deallocate()
    }

    /// Runs `read` on a thread of its own, which sends its batches here, and hands each batch to
    /// `replay` on this one, in order; returns what `read` returned.
    static func run(
        reading read: @escaping @Sendable (RecordPipe) -> Result<LogRecord.Scan, StoreError>,
        replaying replay: (Batch) -> Void
    ) -> Result<LogRecord.Scan, StoreError> {
        let pipe = RecordPipe()
        let thread = ReaderThread { pipe.finish(read(pipe)) }
        defer { thread.join() }
        while true {
            switch pipe.receive() {
            case .batch(let batch): replay(batch)
            case .end(let result): return result
            }
        }
    }

    /// Sends `batch`, once there is room for it.
    func send(_ batch: Batch) {
        Self.wait(room)
        queue.withLock { $0.batches.append(batch) }
        sem_post(filled)
    }

    /// Says the reader is done, after its last batch.
    private func finish(_ result: Result<LogRecord.Scan, StoreError>) {
        queue.withLock { $0.end = result }
        sem_post(filled)
    }

    /// The next batch, in order, or the end once every batch was taken; waits for either.
    private func receive() -> Next {
        Self.wait(filled)
        let next = queue.withLock { queue -> Next in
            guard queue.batches.isEmpty else { return .batch(queue.batches.removeFirst()) }
            return .end(queue.end!)
        }
        if case .batch = next { sem_post(room) }
        return next
    }

    /// `sem_wait`, again when a signal interrupts it.
    private static func wait(_ semaphore: UnsafeMutablePointer<sem_t>) {
        while sem_wait(semaphore) != 0, errno == EINTR {}
    }
}

/// A joinable POSIX thread running one closure.
private final class ReaderThread {
    private var thread = pthread_t()

    init(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        let created = pthread_create(
            &thread,
            nil,
            { raw in
                Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
                return nil
            },
            box
        )
        precondition(created == 0, "could not start the log's reader thread: error \(created)")
    }

    func join() { pthread_join(thread, nil) }

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
