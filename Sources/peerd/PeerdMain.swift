import ArgumentParser
import PeerdLoops

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
@main
enum PeerdMain {
    static func main() async {
        GlobalExecutor.runOnEventLoops()
        await PeerdCommand.main()
    }
}
