import Logging

/// The notifier's side of org.freedesktop.Notifications, on its ``BusThread``: sends each `Notify`,
/// matches the answer to its caller by serial, and turns the server's `ActionInvoked` into `open`.
final class NotificationsClient: BusRole {
    struct Job: Sendable {
        var notice: DesktopNotice
        var appName: String
        var reply: CheckedContinuation<Result<UInt32, DesktopNotifyFailure>, Never>
    }

    /// A `Notify` sent and not yet answered.
    private struct Awaiting {
        var job: Job
        var deadline: ContinuousClock.Instant
    }

    /// How long a server has to answer: by default long enough for the bus to start one that is activatable.
    let replyTimeout: Duration

    private var awaiting: [UInt32: Awaiting] = [:]
    private var ledger = NoticeLedger()
    private let open: @Sendable (String) -> Void
    private let logger: Logger

    init(logger: Logger, replyTimeout: Duration = .seconds(10), open: @escaping @Sendable (String) -> Void) {
        self.logger = logger
        self.replyTimeout = replyTimeout
        self.open = open
    }

    func perform(_ job: Job, on bus: BusConnection) {
        let call = BusMessage.methodCall(
            to: NotificationsInterface.name,
            path: NotificationsInterface.path,
            interface: NotificationsInterface.name,
            member: NotificationsInterface.notify,
            arguments: job.notice.notifyArguments(appName: job.appName)
        )
        guard let call, let serial = bus.send(call) else {
            job.reply.resume(returning: .failure(.notQueued))
            return
        }
        awaiting[serial] = Awaiting(job: job, deadline: .now + replyTimeout)
    }

    func received(_ message: BusMessage, on bus: BusConnection) {
        switch message.kind {
        case .methodReturn, .error: answered(message)
        case .signal: signalled(message)
        case .methodCall, .other: break
        }
    }

    private func answered(_ message: BusMessage) {
        guard let sent = awaiting.removeValue(forKey: message.replySerial) else { return }
        let result: Result<UInt32, DesktopNotifyFailure>
        if message.kind == .error {
            result = .failure(.refused(name: message.errorName ?? "unknown", message: message.errorText))
        } else if case .uint32(let id)? = message.arguments?.first, let server = message.sender {
            ledger.shown(id: id, by: server, openURL: sent.job.notice.openURL)
            result = .success(id)
        } else {
            result = .failure(.malformedReply)
        }
        sent.job.reply.resume(returning: result)
    }

    private func signalled(_ message: BusMessage) {
        let interface = NotificationsInterface.self
        guard let arguments = message.arguments, case .uint32(let id)? = arguments.first else { return }
        if message.isSignal(interface: interface.name, member: interface.actionInvoked),
            arguments.count == 2, case .string(let key) = arguments[1],
            let url = ledger.actionInvoked(id: id, key: key, by: message.sender)
        {
            logger.debug("desktop notification clicked", metadata: ["id": "\(id)"])
            open(url)
        } else if message.isSignal(interface: interface.name, member: interface.notificationClosed) {
            ledger.closed(id: id, by: message.sender)
        }
    }

    func turnEnded(at now: ContinuousClock.Instant) {
        let late = awaiting.filter { $0.value.deadline <= now }
        for (serial, sent) in late {
            awaiting[serial] = nil
            sent.job.reply.resume(returning: .failure(.noReply(within: replyTimeout)))
        }
    }

    var nextDeadline: ContinuousClock.Instant? { awaiting.values.lazy.map(\.deadline).min() }

    func loopEnded(_ end: BusLoopEnd, unperformed: [Job]) {
        if end == .disconnected {
            logger.info("desktop notifications stopped: the session bus went away")
        }
        for job in awaiting.values.map(\.job) + unperformed { job.reply.resume(returning: .failure(.busClosed)) }
        awaiting = [:]
    }
}
