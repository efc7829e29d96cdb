import ArgumentParser
import PeerdLoops

#if canImport(Glibc)
import Glibc
#endif

/// peerd's entry point: ``PeerdCommand``, with SwiftNIO's event loops as Swift's global executor.
///
/// Why: on Linux the global executor is libdispatch's worker pool, and the first task that runs
/// there starts the pool's monitor, a timer that wakes the process every second for the rest of its
/// life (swift-corelibs-libdispatch, `src/event/workqueue.c`; no setting turns it off). A daemon at
/// rest should sleep, and peerd's tasks wait on the loops' sockets anyway. Swift 6.3's own way to
/// replace the global executor (`ExecutorFactory`) is still experimental SPI, and a task executor
/// preference does not reach the unstructured tasks libraries make (swift-service-lifecycle's
/// `cancelOnGracefulShutdown`), so the runtime's hook is set before any task runs
/// (`GlobalExecutor`). Every sleep goes through `LoopClock`, since delayed jobs would still go to
/// libdispatch.
///
/// `main` is synchronous: an `async` one hands the main thread to `dispatch_main()`, which ends it
/// with `pthread_exit`, and that unwinds its stack through the executable's unwind tables (about
/// 0.9 MB of them then resident for good, and libgcc_s loaded). Here the command runs as a task on
/// the loops, and the main thread waits for it, asleep, until the command exits the process.
@main
enum PeerdMain {
    static func main() {
        GlobalExecutor.runOnEventLoops()
        // The one task the process starts by hand, detached from the main actor (whose queue no
        // one drains now); everything else is a service of the daemon's group.
        Task.detached {
            await PeerdCommand.main()
            exit(EXIT_SUCCESS)
        }
        while true { pause() }
    }
}
