import CDBus
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A POSIX thread that owns one bus connection and its ``BusRole``. A turn runs the jobs other threads
/// have submitted, writes what is queued and reads what has come (neither waiting), and hands the role
/// each message. Then the thread sleeps in poll(2) until the bus has something to read, a job or ``stop()``
/// writes to its eventfd, or the role's ``BusRole/nextDeadline`` comes: idle, it does not wake at all.
///
/// Everything goes through this one thread, rather than other threads sending on the connection too,
/// because the loop reads with `dbus_connection_pop_message`, which bypasses libdbus's pending-call
/// bookkeeping: a reply that another thread awaited with `send_with_reply_and_block` could be popped here
/// and lost. Here the loop sees every reply and the role matches it to its caller by serial, and no
/// libdbus object is used by two threads. A submitted job starts at once, or after the turn under way.
package final class BusThread<Role: BusRole>: Sendable {
    private enum Phase { case running, stopping, ended }

    private struct State {
        var jobs: [Role.Job] = []
        var phase = Phase.running
        /// Until ``stop()`` takes it to join.
        var thread: pthread_t?
    }

    private let state = Mutex(State())
    /// An eventfd that wakes the thread: written under the lock while the loop runs, closed by the
    /// thread once the phase is `ended`, so that no one writes to a number the process has reused.
    private let wakeup: Int32

    /// Starts the thread; from now on only it uses `connection` and `role`. Nil when the system
    /// can't start a thread or make an eventfd, or libdbus has no socket (the connection is closed then).
    package init?(connection: sending BusConnection, role: sending Role) {
        guard let socket = connection.socket else { return nil }
        wakeup = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard wakeup >= 0 else { return nil }
        // The thread holds this object until its loop ends.
        let body = Unmanaged.passRetained(ThreadBody { self.run(connection, role, socket: socket) })
        var thread = pthread_t()
        let created = pthread_create(
            &thread,
            nil,
            { raw in
                Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().run()
                return nil
            },
            body.toOpaque()
        )
        guard created == 0 else {
            body.release()
            close(wakeup)
            return nil
        }
        state.withLock { $0.thread = thread }
    }

    /// Queues `job` for the thread; false when its loop has ended (the job will never run).
    package func submit(_ job: Role.Job) -> Bool {
        state.withLock { state in
            guard state.phase == .running else { return false }
            state.jobs.append(job)
            eventfd_write(wakeup, 1)
            return true
        }
    }

    deinit {
        // Only a loop that ended by itself, and was never stopped, leaves its thread to be let go here.
        if let thread = state.withLock({ $0.thread }) { pthread_detach(thread) }
    }

    /// True until the loop has ended and the role has had its last call.
    package var isRunning: Bool { state.withLock { $0.phase != .ended } }

    /// Ends the loop, and when `waiting`, waits for the thread to end: at once, or after the turn under
    /// way. Called on the thread itself (from the role), it only asks. Later calls return at once.
    package func stop(waiting: Bool = true) {
        let thread = state.withLock { state in
            if state.phase == .running {
                state.phase = .stopping
                eventfd_write(wakeup, 1)
            }
            defer { state.thread = nil }
            return state.thread
        }
        guard let thread else { return }
        if waiting && pthread_equal(thread, pthread_self()) == 0 {
            pthread_join(thread, nil)
        } else {
            pthread_detach(thread)
        }
    }

    private func run(_ bus: BusConnection, _ role: Role, socket: Int32) {
        var end = BusLoopEnd.stopped
        var hungUp = false
        while let jobs = takeJobs() {
            for job in jobs { role.perform(job, on: bus) }
            // After a hang-up, this last turn hands the role what the bus sent before it went.
            var disconnected = !bus.readWrite() || hungUp
            while let message = bus.popMessage() {
                if message.isDisconnected {
                    disconnected = true
                } else {
                    role.received(message, on: bus)
                }
            }
            role.turnEnded(at: .now)
            if disconnected {
                end = .disconnected
                break
            }
            // Messages libdbus has read already (in a blocking call of the role's) would not wake poll(2).
            if !bus.hasMessagesRead {
                hungUp = sleep(on: socket, writing: bus.hasMessagesToSend, until: role.nextDeadline)
            }
        }
        let late = state.withLock { state in
            state.phase = .ended
            defer { state.jobs = [] }
            return state.jobs
        }
        close(wakeup)
        role.loopEnded(end, unperformed: late)
        bus.close()
    }

    /// Sleeps until the bus has something to read (or, when `writing`, room for what libdbus holds
    /// unwritten: at once, unless the socket is full), the eventfd is written, or `deadline` comes.
    /// True when the bus has hung up.
    private func sleep(on socket: Int32, writing: Bool, until deadline: ContinuousClock.Instant?) -> Bool {
        var watched = [
            pollfd(fd: socket, events: Int16(writing ? POLLIN | POLLOUT : POLLIN), revents: 0),
            pollfd(fd: wakeup, events: Int16(POLLIN), revents: 0),
        ]
        // Nothing ready (the deadline, or EINTR): the next turn sees to whatever there is.
        guard poll(&watched, 2, Self.pollTimeout(until: deadline)) > 0 else { return false }
        if watched[1].revents != 0 {
            var count: eventfd_t = 0
            eventfd_read(wakeup, &count)
        }
        return watched[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }

    /// poll(2)'s timeout for `deadline`: -1 (none) without one, else the milliseconds left, rounded up
    /// so that the thread doesn't wake just before it and again at it.
    static func pollTimeout(
        until deadline: ContinuousClock.Instant?,
        now: ContinuousClock.Instant = .now
    ) -> Int32 {
        guard let deadline else { return -1 }
        let left = deadline - now
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        guard seconds < Int64(Int32.max / 1000) else { return Int32.max }
        let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000
        let milliseconds = seconds * 1000 + (attoseconds + attosecondsPerMillisecond - 1) / attosecondsPerMillisecond
        return Int32(clamping: milliseconds)
    }

    /// The jobs submitted since the last turn; nil once ``stop()`` has asked the loop to end.
    private func takeJobs() -> [Role.Job]? {
        state.withLock { state in
            guard state.phase == .running else { return nil }
            defer { state.jobs = [] }
            return state.jobs
        }
    }
}

/// What a new thread runs: passed to `pthread_create` as a retained pointer, taken back by the thread.
private final class ThreadBody {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}
