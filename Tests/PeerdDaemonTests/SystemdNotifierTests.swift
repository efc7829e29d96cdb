import Testing

@testable import PeerdDaemon

#if canImport(Glibc)
import Glibc
#endif

@Suite("sd_notify by hand")
struct SystemdNotifierTests {
    @Test func thereIsNoNotifierWithoutANotifySocket() {
        #expect(SystemdNotifier(environment: [:]) == nil)
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": ""]) == nil)
    }

    @Test func aMessageIsOneDatagramOfNewlineSeparatedAssignments() throws {
        let listener = try NotifyListener()
        let notifier = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.address]))
        try notifier.send(["READY=1", "STATUS=3 peers, 42 movies"])
        try notifier.send(["WATCHDOG=1"])
        #expect(listener.receiveNow() == "READY=1\nSTATUS=3 peers, 42 movies")
        #expect(listener.receiveNow() == "WATCHDOG=1")
        #expect(listener.receiveNow() == nil)
    }

    @Test func anAddressStartingWithAtIsInTheAbstractNamespace() throws {
        let listener = try NotifyListener(abstract: true)
        let notifier = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.address]))
        try notifier.send(["STOPPING=1"])
        #expect(listener.receiveNow() == "STOPPING=1")
    }

    @Test func aRelativeOrOverlongAddressIsRefused() throws {
        let relative = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": "notify.sock"]))
        #expect(throws: SystemdNotifier.Failure.unsupportedAddress("notify.sock")) { try relative.send(["READY=1"]) }
        let long = "/" + String(repeating: "x", count: 120)
        let overlong = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": long]))
        #expect(throws: SystemdNotifier.Failure.unsupportedAddress(long)) { try overlong.send(["READY=1"]) }
    }

    /// It runs on an event loop: a manager that doesn't read must not stop it (a test whose listener
    /// was starved once hung the whole test run this way).
    @Test func aFullQueueFailsTheSendAtOnceAndNeverBlocks() throws {
        let listener = try NotifyListener()
        let notifier = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.address]))
        var sent = 0
        while sent < 10_000, (try? notifier.send(["WATCHDOG=1"])) != nil { sent += 1 }
        #expect(sent < 10_000)
        #expect(throws: SystemdNotifier.Failure.sendFailed(errno: EAGAIN)) { try notifier.send(["WATCHDOG=1"]) }
        #expect(listener.receiveNow() == "WATCHDOG=1")
        #expect(throws: Never.self) { try notifier.send(["WATCHDOG=1"]) }
    }

    @Test func sendingToAMissingSocketReportsTheErrno() throws {
        let notifier = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": "/tmp/peerd-no-such-socket"]))
        #expect(throws: SystemdNotifier.Failure.sendFailed(errno: ENOENT)) { try notifier.send(["READY=1"]) }
    }

    @Test func theWatchdogTimeoutComesFromWatchdogUsecWhenItIsMeantForUs() throws {
        let base = ["NOTIFY_SOCKET": "/run/notify"]
        let plain = try #require(SystemdNotifier(environment: base.merging(["WATCHDOG_USEC": "30000000"]) { $1 }))
        #expect(plain.watchdogTimeout == .seconds(30))
        let ours = SystemdNotifier(
            environment: base.merging(["WATCHDOG_USEC": "4000000", "WATCHDOG_PID": "42"]) { $1 },
            pid: 42
        )
        #expect(ours?.watchdogTimeout == .seconds(4))
        let theirs = SystemdNotifier(
            environment: base.merging(["WATCHDOG_USEC": "4000000", "WATCHDOG_PID": "7"]) { $1 },
            pid: 42
        )
        #expect(theirs?.watchdogTimeout == nil)
        for broken in ["0", "-5", "soon"] {
            #expect(
                SystemdNotifier(environment: base.merging(["WATCHDOG_USEC": broken]) { $1 })?.watchdogTimeout == nil
            )
        }
        #expect(SystemdNotifier(environment: base)?.watchdogTimeout == nil)
    }
}
