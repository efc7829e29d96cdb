import PeerdDesktop
import Synchronization

/// A notification server of the tests' own, on a real bus through libdbus: it owns
/// `org.freedesktop.Notifications` (unless told not to, to play another program on the bus), answers
/// each `Notify` with the next id (unless told not to, to play a server that hangs), keeps the arguments
/// of each, and emits the server's signals.
final class TestNotificationServer: Sendable {
    /// The arguments of each `Notify` received, in order.
    var calls: [[BusValue]] { recorder.calls.withLock { $0 } }
    private let recorder: Recorder
    private let thread: BusThread<Role>

    init(address: String, owningName: Bool = true, answering: Bool = true, firstID: UInt32 = 7) throws {
        let bus = try BusConnection.open(address: address)
        if owningName { try bus.requestName(NotificationsInterface.name) }
        recorder = Recorder()
        let role = Role(recorder: recorder, answering: answering, nextID: firstID)
        guard let thread = BusThread(connection: bus, role: role) else {
            throw BusError(name: "test", message: "could not start the server's thread")
        }
        self.thread = thread
    }

    deinit { thread.stop() }

    /// Emits `ActionInvoked(id, key)`; returns once the bus has routed it.
    func invokeAction(id: UInt32, key: String = NotificationsInterface.defaultAction) async {
        await emit(NotificationsInterface.actionInvoked, [.uint32(id), .string(key)])
    }

    /// Emits `NotificationClosed(id, 2)` (dismissed by the user); returns once the bus has routed it.
    func close(id: UInt32) async {
        await emit(NotificationsInterface.notificationClosed, [.uint32(id), .uint32(2)])
    }

    func stop() { thread.stop() }

    private func emit(_ member: String, _ arguments: [BusValue]) async {
        await withCheckedContinuation { done in
            if !thread.submit(Role.Job(member: member, arguments: arguments, done: done)) { done.resume() }
        }
    }

    /// What the role records, for the test to read from its own thread.
    private final class Recorder: Sendable {
        let calls = Mutex<[[BusValue]]>([])
    }

    private final class Role: BusRole {
        struct Job: Sendable {
            var member: String
            var arguments: [BusValue]
            var done: CheckedContinuation<Void, Never>
        }

        let recorder: Recorder
        let answering: Bool
        var nextID: UInt32

        init(recorder: Recorder, answering: Bool, nextID: UInt32) {
            self.recorder = recorder
            self.answering = answering
            self.nextID = nextID
        }

        func perform(_ job: Job, on bus: BusConnection) {
            let interface = NotificationsInterface.self
            if let signal = BusMessage.signal(
                path: interface.path,
                interface: interface.name,
                member: job.member,
                arguments: job.arguments
            ) {
                _ = bus.send(signal)
            }
            // The bus handles a connection's messages in order: once it has answered this, it has routed
            // the signal to every receiver, ahead of anything any connection sends afterwards.
            try? bus.roundTrip()
            job.done.resume()
        }

        func received(_ message: BusMessage, on bus: BusConnection) {
            guard message.isMethodCall(interface: NotificationsInterface.name, member: NotificationsInterface.notify)
            else { return }
            recorder.calls.withLock { $0.append(message.arguments ?? []) }
            guard answering else { return }
            if let reply = message.methodReturn([.uint32(nextID)]) { _ = bus.send(reply) }
            nextID += 1
        }

        func turnEnded(at now: ContinuousClock.Instant) {}

        var nextDeadline: ContinuousClock.Instant? { nil }

        func loopEnded(_ end: BusLoopEnd, unperformed: [Job]) {
            for job in unperformed { job.done.resume() }
        }
    }
}
