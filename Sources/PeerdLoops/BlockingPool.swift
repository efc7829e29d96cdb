import NIOPosix

/// Where the daemon's file system calls run: one thread of SwiftNIO's `NIOThreadPool`, never an event
/// loop. Every Swift task of peerd runs on the event loops (``GlobalExecutor``), so a `write`, an
/// `fsync` or a directory listing made in a task would hold up every connection on that loop while
/// the disk answers; SwiftNIO's rule is to block only on a thread pool. (The operation log has a
/// thread of its own, `PooledOperationLog`, so a commit never waits behind these.)
///
/// One thread, so the work runs one at a time in the order it was given: two writes of the same
/// file (its `.tmp` beside it, ``AtomicFile``) never interleave, and the later one lands last.
package enum BlockingPool {
    /// Started on first use and never stopped: it lives as long as the process, like the loops.
    private static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        return pool
    }()

    /// Runs `work` on the pool's thread and returns what it returned or throws what it threw.
    /// `work` always runs, even when the calling task is cancelled meanwhile: a write that was
    /// asked for is made, or fails on its own terms. It is handed over before the caller's actor
    /// (`isolation`) does anything else, so an actor's work reaches the pool in the actor's order.
    package static func run<Value: Sendable, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let outcome = await withCheckedContinuation(isolation: isolation) {
            (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
            // The pool is never shut down, so every item runs as `.active`.
            pool.submit { _ in continuation.resume(returning: Result { () throws(Failure) in try work() }) }
        }
        return try outcome.get()
    }
}
