import Logging
import PeerdTestKit
import Testing

@testable import PeerdDesktop

#if canImport(Glibc)
import Glibc
#endif

/// The bus thread's sleep: idle, it doesn't wake; a job, a message or its role's deadline wakes it.
@Suite struct BusThreadTests {
    /// Idleness can only be seen over time, so this test waits a second on purpose: what it measures is
    /// the wait. It counts the times the kernel put the notifier's thread to sleep (its voluntary context
    /// switches): a thread asleep in poll(2) all along makes one at most, one woken every 200 ms five.
    @Test(.enabled(if: TestSessionBus.program != nil, DesktopNotifierTests.busMissing))
    func anIdleNotifierThreadSleepsUntilSomethingHappens() async throws {
        try await withTestSessionBus { bus in
            let server = try TestNotificationServer(address: bus.address)
            // `open` runs on the notifier's thread: it says which one that is.
            let threads = EventFeed<String>()
            let notifier = try DesktopNotifierTests.notifier(on: bus) { _ in threads.send(Self.callingThread()) }
            defer { notifier.close() }
            let id = try #require(await notifier.notify(DesktopNotifierTests.arrival))
            let named = threads.subscribe()
            await server.invokeAction(id: id)
            let thread = try #require(try await firstEvent(of: named))

            let before = try #require(Self.voluntarySwitches(of: thread))
            try await Task.sleep(for: .seconds(1))
            let after = try #require(Self.voluntarySwitches(of: thread))
            #expect(after - before <= 2, "the idle thread went to sleep \(after - before) times in 1 s")
            #expect(await notifier.notify(DesktopNotice(summary: "Tonight", body: "")) == id + 1, "a job wakes it")
        }
    }

    /// Nothing but the deadline wakes the thread here: the server takes the `Notify` and never answers.
    @Test(.enabled(if: TestSessionBus.program != nil, DesktopNotifierTests.busMissing))
    func aNoticeTheServerNeverAnswersFailsAtItsDeadline() async throws {
        try await withTestSessionBus { bus in
            let server = try TestNotificationServer(address: bus.address, answering: false)
            let timeout = Duration.milliseconds(300)
            let client = NotificationsClient(logger: LogRecorder().logger, replyTimeout: timeout) { _ in }
            let connection = try BusConnection.open(address: bus.address)
            let started = BusThread(connection: connection, role: client)
            let thread = try #require(started)
            defer { thread.stop() }

            let sent = ContinuousClock.now
            let result = await withTaskGroup { group in
                // Should the deadline never wake the thread, stopping it ends the wait (busClosed), not the run.
                group.addTask {
                    guard (try? await Task.sleep(for: .seconds(15))) != nil else { return }
                    thread.stop(waiting: false)
                }
                defer { group.cancelAll() }
                return await withCheckedContinuation { reply in
                    let job = NotificationsClient.Job(
                        notice: DesktopNotifierTests.arrival,
                        appName: "peerd",
                        reply: reply
                    )
                    if !thread.submit(job) { reply.resume(returning: .failure(.busClosed)) }
                }
            }
            #expect(result == .failure(.noReply(within: timeout)))
            #expect(ContinuousClock.now - sent >= timeout)
            #expect(server.calls.count == 1)
        }
    }

    @Test func pollWaitsForeverWithoutADeadlineAndOtherwiseUntilJustPastIt() {
        typealias Thread = BusThread<NotificationsClient>
        let now = ContinuousClock.now
        #expect(Thread.pollTimeout(until: nil, now: now) == -1)
        #expect(Thread.pollTimeout(until: now - .seconds(1), now: now) == 0)
        #expect(Thread.pollTimeout(until: now, now: now) == 0)
        #expect(Thread.pollTimeout(until: now + .microseconds(1), now: now) == 1)
        #expect(Thread.pollTimeout(until: now + .microseconds(1500), now: now) == 2)
        #expect(Thread.pollTimeout(until: now + .seconds(10), now: now) == 10_000)
        #expect(Thread.pollTimeout(until: now + .seconds(100 * 86_400), now: now) == Int32.max)
    }

    /// `/proc/<pid>/task/<tid>` of the calling thread.
    static func callingThread() -> String {
        var link = [UInt8](repeating: 0, count: 64)
        let count = link.withUnsafeMutableBufferPointer { readlink("/proc/thread-self", $0.baseAddress!, $0.count) }
        return "/proc/" + String(decoding: link.prefix(max(count, 0)), as: UTF8.self)
    }

    /// How many times `thread` (a `/proc/<pid>/task/<tid>`) has gone to sleep; nil when it has ended.
    static func voluntarySwitches(of thread: String) -> Int? {
        let status = TestSessionBus.contents(of: thread + "/status").split(separator: "\n")
        let line = status.first { $0.hasPrefix("voluntary_ctxt_switches:") }
        return line?.split(whereSeparator: \.isWhitespace).last.flatMap { Int($0) }
    }
}
