import NIOCore

/// A channel's event loop as the preferred executor of the task that serves it (SE-0417,
/// `withTaskExecutorPreference`): the connection's loop, its reads, writes and timer then run on
/// the thread that does the channel's I/O, so a frame or a keepalive wakes that one thread instead
/// of handing each step between it and whichever loop Swift's global executor picks (PeerdMain). Actor calls still hop to their actors.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
