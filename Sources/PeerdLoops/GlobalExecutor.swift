import CPeerdLoops
import NIOCore
import NIOPosix

/// SwiftNIO's event loops as Swift's global executor, for a daemon whose tasks should never reach
/// libdispatch's worker pool (Sources/peerd/PeerdMain.swift says why).
package enum GlobalExecutor {
    /// From now on every job for the global executor runs on the shared event loops: on the loop
    /// of the thread that enqueues it, or the next one. Call once, before any task runs.
    package static func runOnEventLoops() {
        peerd_install_global_executor()
    }
}

/// The runtime's hook calls this (CPeerdLoops) with each job; NIO's loop runs it as its own
/// serial executor does, without a closure per job.
@_cdecl("peerd_enqueue_global_job")
func enqueueGlobalJob(_ job: UnsafeMutableRawPointer) {
    MultiThreadedEventLoopGroup.singleton.any().executor.enqueue(unsafeBitCast(job, to: UnownedJob.self))
}
