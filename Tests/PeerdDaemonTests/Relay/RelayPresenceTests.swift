import Logging
import NIOPosix
import PeerdModel
import PeerdRelay
import PeerdSecurity
import PeerdTestKit
import PeerdWire
import ServiceLifecycleTestKit
import Testing

@testable import PeerdDaemon

/// The presence on its own, with no relay server: a relay nobody answers for is retried and says
/// why, and the service ends at graceful shutdown.
@Suite struct RelayPresenceTests {
    @Test func aRelayNobodyListensForIsRetriedWithWhyAndWhen() async throws {
        let connector = RelayConnector(group: MultiThreadedEventLoopGroup.singleton, identity: try .generate())
        let presence = RelayPresence(connector: connector, logger: Logger(label: "relay-test")) { _, _ in }
        // Port 9 (discard) on loopback: nothing listens there on a test machine.
        let url = RelayURL(host: "127.0.0.1", port: 9, id: RelayDeviceID(certificateDER: [1]))
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await presence.run() }
                await presence.use([url, url])
                let retrying = try await waitUntil(presence.changes()) {
                    await presence.records(now: Wallclock.millis()).first?.state == .retrying
                }
                #expect(retrying)
                let records = await presence.records(now: Wallclock.millis())
                #expect(records.count == 1)
                #expect(records.first?.url == url.description)
                #expect(records.first?.lastError == "could not reach the relay: connection refused")
                // When the next try is, while it waits (a loaded machine may be trying again by now).
                if let first = records.first, first.state == .retrying {
                    #expect(
                        first.retryIn.map { $0 >= 0 && $0 <= 1 } == true,
                        "retry in \(String(describing: first.retryIn))"
                    )
                }
                #expect(await presence.joinedURLs().isEmpty)
                trigger.triggerGracefulShutdown()
                try await group.waitForAll()
            }
        }
    }
}
