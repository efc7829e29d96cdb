/// What a connection does on its ``BusThread``. A role lives on that thread alone, so it keeps its
/// state in plain properties; other threads reach it only by submitting a ``Job``.
package protocol BusRole: AnyObject {
    /// Work another thread hands in, such as a message to send and whom to tell of its reply.
    associatedtype Job: Sendable

    /// Does `job`, on the bus thread.
    func perform(_ job: Job, on bus: BusConnection)
    /// Handles a message the bus sent this connection.
    func received(_ message: BusMessage, on bus: BusConnection)
    /// Called at the end of every turn of the loop, and so by ``nextDeadline`` at the latest: for deadlines.
    func turnEnded(at now: ContinuousClock.Instant)
    /// When ``turnEnded(at:)`` next has something to do though nothing else happens; nil for never. The
    /// thread sleeps until then, or until a message or a job comes.
    var nextDeadline: ContinuousClock.Instant? { get }
    /// The loop has ended, because it was stopped or the bus went away; `unperformed` came too late.
    /// The last call, before the connection closes.
    func loopEnded(_ end: BusLoopEnd, unperformed: [Job])
}

/// Why a ``BusThread``'s loop ended.
package enum BusLoopEnd: Sendable, Equatable {
    /// ``BusThread/stop()``.
    case stopped
    /// The bus closed the connection (its daemon went away).
    case disconnected
}
