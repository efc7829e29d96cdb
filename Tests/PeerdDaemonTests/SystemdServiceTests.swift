import Logging
import NIOPosix
import PeerdTestKit
import ServiceLifecycle
import ServiceLifecycleTestKit
import Synchronization
import Testing

@testable import PeerdDaemon

@Suite("What peerd tells systemd while it runs")
struct SystemdServiceTests {
    /// The counts the service shows, how often it asked for them, and the doorbell a test rings
    /// when it changes them (as a commit or a session would).
    final class Counter: Sendable {
        let counts = Mutex(SystemdService.Counts(peers: 0, movies: 0))
        let asked = Atomic<Int>(0)
        /// An event each time the service asked for the counts.
        let asks = EventFeed<Void>()
        let changes = AsyncStream.makeStream(of: Void.self)

        func service(_ notifier: SystemdNotifier, statusInterval: Duration) -> SystemdService {
            SystemdService(
                notifier: notifier,
                statusInterval: statusInterval,
                eventLoop: MultiThreadedEventLoopGroup.singleton.next(),
                logger: Logger(label: "test")
            ) { ring in
                for await _ in self.changes.stream { await ring() }
            } counts: {
                self.asked.add(1, ordering: .relaxed)
                self.asks.send(())
                return self.counts.withLock { $0 }
            }
        }

        func change(to counts: SystemdService.Counts) {
            self.counts.withLock { $0 = counts }
            changes.continuation.yield()
        }
    }

    @Test func readyComesFirstThenStatusChangesAndWatchdogPingsThenStopping() async throws {
        let listener = try NotifyListener(draining: true)
        let environment = ["NOTIFY_SOCKET": listener.address, "WATCHDOG_USEC": "200000"]
        let notifier = try #require(SystemdNotifier(environment: environment))
        let counter = Counter()
        counter.counts.withLock { $0 = .init(peers: 3, movies: 42) }
        let service = counter.service(notifier, statusInterval: .milliseconds(20))
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup { group in
                group.addTask { try await service.run() }
                #expect(try await listener.receive() == "READY=1\nSTATUS=3 peers, 42 movies")
                counter.change(to: .init(peers: 1, movies: 1))
                // The new counts once, and pings every 100 ms (half of 200 ms), alone or together.
                var messages: [String] = []
                while messages.filter({ $0.contains("WATCHDOG=1") }).count < 2
                    || !messages.contains(where: { $0.contains("STATUS=") }),
                    let next = try await listener.receive()
                {
                    messages.append(next)
                }
                let assignments = messages.flatMap { $0.split(separator: "\n").map(String.init) }
                #expect(assignments.filter { $0.hasPrefix("STATUS=") } == ["STATUS=1 peer, 1 movie"])
                #expect(assignments.allSatisfy { $0 == "WATCHDOG=1" || $0 == "STATUS=1 peer, 1 movie" })
                trigger.triggerGracefulShutdown()
                try await group.waitForAll()
            }
        }
        var rest: [String] = []
        while let message = listener.receiveNow() { rest.append(message) }
        #expect(rest.last == "STOPPING=1\nSTATUS=stopping")
        #expect(rest.dropLast().allSatisfy { $0 == "WATCHDOG=1" })  // unchanged counts are not repeated
    }

    @Test func withoutAWatchdogOnlyStatusChangesAreSentAndNothingElseWakesIt() async throws {
        let listener = try NotifyListener(draining: true)
        let notifier = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.address]))
        let counter = Counter()
        let service = counter.service(notifier, statusInterval: .milliseconds(10))
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup { group in
                group.addTask { try await service.run() }
                #expect(try await listener.receive() == "READY=1\nSTATUS=0 peers, 0 movies")
                // Nothing changes: nothing is sent, and the counts are not asked again. 100 ms is
                // ten status intervals, in which the loop this replaced asked ten times.
                #expect(try await listener.receive(within: .milliseconds(100)) == nil)
                #expect(counter.asked.load(ordering: .relaxed) == 1)
                // A ring without a change asks but sends nothing (else it would come before the
                // next); a change is sent at once.
                let asks = counter.asks.subscribe()
                counter.change(to: .init(peers: 0, movies: 0))
                #expect(try await waitUntil(asks) { counter.asked.load(ordering: .relaxed) == 2 })
                counter.change(to: .init(peers: 1, movies: 0))
                #expect(try await listener.receive() == "STATUS=1 peer, 0 movies")
                trigger.triggerGracefulShutdown()
                try await group.waitForAll()
            }
        }
        #expect(listener.receiveNow() == "STOPPING=1\nSTATUS=stopping")
    }
}
