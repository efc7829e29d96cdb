import Logging
import ServiceLifecycle
import ServiceLifecycleTestKit
import Synchronization
import Testing

@testable import PeerdDaemon

@Suite("What peerd tells systemd while it runs")
struct SystemdServiceTests {
    final class Counter: Sendable {
        let counts = Mutex(SystemdService.Counts(peers: 0, movies: 0))
    }

    @Test func readyComesFirstThenStatusChangesAndWatchdogPingsThenStopping() async throws {
        let listener = try NotifyListener()
        let environment = ["NOTIFY_SOCKET": listener.address, "WATCHDOG_USEC": "200000"]
        let notifier = try #require(SystemdNotifier(environment: environment))
        let counter = Counter()
        counter.counts.withLock { $0 = .init(peers: 3, movies: 42) }
        let service = SystemdService(
            notifier: notifier,
            statusInterval: .milliseconds(20),
            logger: Logger(label: "test")
        ) {
            counter.counts.withLock { $0 }
        }
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup { group in
                group.addTask { try await service.run() }
                #expect(try await listener.receive() == "READY=1\nSTATUS=3 peers, 42 movies")
                counter.counts.withLock { $0 = .init(peers: 1, movies: 1) }
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

    @Test func withoutAWatchdogOnlyStatusChangesAreSent() async throws {
        let listener = try NotifyListener()
        let notifier = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.address]))
        let service = SystemdService(
            notifier: notifier,
            statusInterval: .milliseconds(10),
            logger: Logger(label: "test")
        ) {
            .init(peers: 0, movies: 0)
        }
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup { group in
                group.addTask { try await service.run() }
                #expect(try await listener.receive() == "READY=1\nSTATUS=0 peers, 0 movies")
                #expect(try await listener.receive(within: .milliseconds(100)) == nil)
                trigger.triggerGracefulShutdown()
                try await group.waitForAll()
            }
        }
        #expect(listener.receiveNow() == "STOPPING=1\nSTATUS=stopping")
    }
}
