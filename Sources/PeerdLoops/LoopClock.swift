package import NIOCore
import NIOPosix

/// A clock whose sleeps are SwiftNIO timers on the shared event loops. `Task.sleep` schedules on
/// libdispatch, and its first timer starts the worker-pool monitor that ``GlobalExecutor`` exists
/// to keep away. Its instants are `ContinuousClock`'s, so its deadlines mix with the rest of peerd's.
package struct LoopClock: Clock {
    package typealias Instant = ContinuousClock.Instant

    /// Over NIO's shared event loops.
    package static let shared = LoopClock(group: MultiThreadedEventLoopGroup.singleton)

    private let group: any EventLoopGroup

    private init(group: any EventLoopGroup) {
        self.group = group
    }

    package var now: Instant { .now }

    package var minimumResolution: Duration { ContinuousClock().minimumResolution }

    /// Returns at `deadline` or later, or throws `CancellationError` as soon as the task is cancelled.
    /// NIO's timers run on the monotonic clock, which stops while the machine is suspended and
    /// `ContinuousClock` does not: a sleep across a suspend ends late. One that wakes before its
    /// deadline (the two clocks' rounding) is set again for what is left.
    package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        while case let left = now.duration(to: deadline), left > .zero {
            try Task.checkCancellation()
            let timer = group.any().scheduleTask(in: TimeAmount(left)) {}
            try await withTaskCancellationHandler {
                do {
                    try await timer.futureResult.get()
                } catch {
                    throw CancellationError()
                }
            } onCancel: {
                timer.cancel()
            }
        }
        try Task.checkCancellation()
    }
}
