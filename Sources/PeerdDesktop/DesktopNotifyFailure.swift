/// Why a notification wasn't shown: the cause a notifier logs.
package enum DesktopNotifyFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The connection to the session bus has closed (the bus went away, or ``DesktopNotifier/close()``).
    case busClosed
    /// The bus or the server answered with an error, such as `ServiceUnknown` when no notification
    /// server owns the name.
    case refused(name: String, message: String)
    /// No answer within the time a server has.
    case noReply(within: Duration)
    /// The server answered without a notification id.
    case malformedReply
    /// libdbus could not build or queue the message (out of memory).
    case notQueued

    package var description: String {
        switch self {
        case .busClosed: "the session bus connection has closed"
        case .refused(let name, let message): "\(name): \(message)"
        case .noReply(let within): "no answer from the notification server within \(within)"
        case .malformedReply: "the notification server answered without an id"
        case .notQueued: "libdbus could not queue the message"
        }
    }
}
