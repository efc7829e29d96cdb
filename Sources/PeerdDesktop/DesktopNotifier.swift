package import Logging

/// Notifications on the user's desktop: org.freedesktop.Notifications on the session bus, through
/// libdbus on a thread of the notifier's own (``BusThread``).
package final class DesktopNotifier: Sendable {
    private let thread: BusThread<NotificationsClient>
    private let appName: String
    private let logger: Logger

    private init(thread: BusThread<NotificationsClient>, appName: String, logger: Logger) {
        self.thread = thread
        self.appName = appName
        self.logger = logger
    }

    /// Asks the thread to end without waiting for it: the last reference may go on an event loop.
    deinit { thread.stop(waiting: false) }

    /// Connects to the session bus at `address` (the value of `DBUS_SESSION_BUS_ADDRESS`; nil or empty:
    /// no bus). Nil, said in one info line, when there is no bus or it refuses. Blocks for the connection
    /// and three round trips to the bus, milliseconds.
    ///
    /// `open` is called with a notification's `openURL` when the user clicks it. It runs on the
    /// notifier's thread, which reads the bus meanwhile: it should start the opener, not wait for it.
    package static func connect(
        address: String?,
        appName: String = "peerd",
        logger: Logger,
        open: @escaping @Sendable (String) -> Void
    ) -> DesktopNotifier? {
        guard let address, !address.isEmpty else {
            noBus(logger, cause: "no bus address")
            return nil
        }
        do throws(BusError) {
            let bus = try BusConnection.open(address: address)
            try bus.addMatch(NotificationsInterface.signalRule(NotificationsInterface.actionInvoked))
            try bus.addMatch(NotificationsInterface.signalRule(NotificationsInterface.notificationClosed))
            let client = NotificationsClient(logger: logger, open: open)
            guard let thread = BusThread(connection: bus, role: client) else {
                noBus(logger, cause: "could not start a thread to read the bus", address: address)
                return nil
            }
            return DesktopNotifier(thread: thread, appName: appName, logger: logger)
        } catch {
            noBus(logger, cause: "\(error)", address: address)
            return nil
        }
    }

    private static func noBus(_ logger: Logger, cause: String, address: String? = nil) {
        var metadata: Logger.Metadata = ["cause": "\(cause)"]
        if let address { metadata["address"] = "\(address)" }
        logger.info("no desktop notifications: no session bus", metadata: metadata)
    }

    /// Shows `notice`: the server's id for it, or nil, with the cause logged, when it couldn't be shown
    /// (no notification server, the bus gone, no answer within 10 s).
    package func notify(_ notice: DesktopNotice) async -> UInt32? {
        let result = await withCheckedContinuation { reply in
            if !thread.submit(NotificationsClient.Job(notice: notice, appName: appName, reply: reply)) {
                reply.resume(returning: .failure(.busClosed))
            }
        }
        switch result {
        case .success(let id):
            return id
        case .failure(let failure):
            logger.notice("desktop notification not shown", metadata: ["cause": "\(failure)"])
            return nil
        }
    }

    /// Closes the connection and stops listening: returns once the notifier's thread has ended (at once,
    /// or after the turn under way). Notifications still awaiting an answer get nil.
    package func close() { thread.stop() }

    /// False once the notifier's thread has ended: closed, or the bus went away.
    package var isListening: Bool { thread.isRunning }
}
