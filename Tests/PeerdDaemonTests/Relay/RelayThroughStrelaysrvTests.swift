import Logging
import NIOCore
import NIOPosix
import PeerdModel
import PeerdRelay
import PeerdSecurity
import PeerdTestKit
import PeerdWire
import Testing

@testable import PeerdDaemon

/// The relay client against Debian's real `strelaysrv` on loopback: joining (permanent mode), a
/// session between two devices with TLS end to end inside it, and what happens when the device,
/// the relay's id or the relay itself is not there.
@Suite(.serialized) struct RelayThroughStrelaysrvTests {
    static let group = MultiThreadedEventLoopGroup.singleton
    static let logger = Logger(label: "relay-test")

    /// A device: its identity and its connector.
    struct Device {
        let identity: PeerIdentity
        let connector: RelayConnector

        init() throws {
            identity = try PeerIdentity.generate()
            connector = RelayConnector(group: RelayThroughStrelaysrvTests.group, identity: identity)
        }
    }

    @Test(.enabled(if: TestRelayServer.program != nil, TestRelayServer.missing))
    func twoDevicesMeetThroughTheRelayAndTalkTLSEndToEnd() async throws {
        try await withTestRelayServer { relay in
            let a = try Device()
            let b = try Device()
            let invitations = AsyncStream.makeStream(of: RelayInvitation.self)
            let presence = RelayPresence(connector: a.connector, logger: Self.logger) { invitation, _ in
                invitations.continuation.yield(invitation)
            }
            try await withPresence(presence, using: [relay.url]) {
                let record = try #require(await joined(presence))
                #expect(record.url == relay.url.description)
                #expect(record.address == "127.0.0.1:\(relay.port)")
                #expect(record.latencyMs != nil)
                #expect(record.joinedSince != nil)
                #expect(await presence.joinedURLs() == [relay.url])

                let asked = try await b.connector.invitation(
                    to: a.connector.device,
                    via: relay.url,
                    timeout: .seconds(5)
                )
                #expect(asked.from == a.connector.device)
                #expect(!asked.serverSocket)
                #expect(asked.host == "127.0.0.1" && asked.port == relay.port)
                let invited = try #require(try await firstEvent(of: invitations.stream))
                #expect(invited.from == b.connector.device)
                #expect(invited.serverSocket)

                // One after the other: strelaysrv 1.19 may refuse one of two joins at the same instant.
                let pipeA = try await Self.pipe(invited, for: a, via: relay.url)
                let pipeB: Pipe
                do {
                    pipeB = try await Self.pipe(asked, for: b, via: relay.url)
                } catch {
                    try? await pipeA.executeThenClose { _, _ in }
                    throw error
                }
                try await pipeA.executeThenClose { inboundA, outboundA in
                    try await pipeB.executeThenClose { inboundB, outboundB in
                        try await outboundA.write(ByteBuffer(string: "from a"))
                        try await outboundB.write(ByteBuffer(string: "from b"))
                        #expect(try await Self.hear(6, from: inboundA) == "from b")
                        #expect(try await Self.hear(6, from: inboundB) == "from a")
                        #expect(try await PeerTLS.remote(of: pipeA.channel).certificate == b.identity.certificateDER)
                        #expect(try await PeerTLS.remote(of: pipeB.channel).certificate == a.identity.certificateDER)
                    }
                }
            }
        }
    }

    @Test(.enabled(if: TestRelayServer.program != nil, TestRelayServer.missing))
    func askingForADeviceTheRelayDoesNotKnowSaysSo() async throws {
        try await withTestRelayServer { relay in
            let b = try Device()
            let nobody = RelayDeviceID(certificateDER: Array("nobody".utf8))
            await #expect(throws: RelayError.notFound) {
                try await b.connector.invitation(to: nobody, via: relay.url, timeout: .seconds(5))
            }
            #expect(RelayError.notFound.description.contains("not joined to this relay"))
        }
    }

    @Test(.enabled(if: TestRelayServer.program != nil, TestRelayServer.missing))
    func aRelayWhoseIDIsNotTheNamedOneIsRefusedAndNothingJoins() async throws {
        try await withTestRelayServer { relay in
            let a = try Device()
            let b = try Device()
            let named = RelayDeviceID(certificateDER: Array("another relay".utf8))
            var impostor = relay.url
            impostor.id = named
            let wrong = RelayError.wrongRelay(expected: named, got: try #require(relay.url.id))
            await #expect(throws: wrong) {
                try await b.connector.invitation(to: a.connector.device, via: impostor, timeout: .seconds(5))
            }
            let presence = RelayPresence(connector: a.connector, logger: Self.logger) { _, _ in }
            try await withPresence(presence, using: [impostor]) {
                let refused = try await waitUntil(presence.changes()) {
                    await presence.records(now: Wallclock.millis()).first?.state == .retrying
                }
                #expect(refused)
                let record = try #require(await presence.records(now: Wallclock.millis()).first)
                #expect(record.lastError == wrong.description)
                #expect(await presence.joinedURLs().isEmpty)
                await #expect(throws: RelayError.notFound) {
                    try await b.connector.invitation(to: a.connector.device, via: relay.url, timeout: .seconds(5))
                }
            }
        }
    }

    @Test(.enabled(if: TestRelayServer.program != nil, TestRelayServer.missing))
    func aRelayThatGoesAwayIsRetriedAndJoinedAgainWhenItReturns() async throws {
        try await withTestRelayServer { relay in
            let a = try Device()
            let presence = RelayPresence(connector: a.connector, logger: Self.logger) { _, _ in }
            try await withPresence(presence, using: [relay.url]) {
                let first = try #require(await joined(presence))
                relay.kill()
                let retrying = try await waitUntil(presence.changes()) {
                    let record = await presence.records(now: Wallclock.millis()).first
                    return record?.state == .retrying && record?.lastError != nil && record?.retryIn != nil
                }
                #expect(retrying)
                #expect(await presence.joinedURLs().isEmpty)
                try relay.start()
                let again = try #require(await joined(presence, within: .seconds(30)))
                #expect(again.joinedSince! >= first.joinedSince!)
                #expect(again.lastError == nil)
            }
        }
    }

    @Test(.enabled(if: TestRelayServer.program != nil, TestRelayServer.missing))
    func aRelayNoLongerNamedIsLeft() async throws {
        try await withTestRelayServer { relay in
            let a = try Device()
            let presence = RelayPresence(connector: a.connector, logger: Self.logger) { _, _ in }
            try await withPresence(presence, using: [relay.url]) {
                _ = try #require(await joined(presence))
                await presence.use([])
                #expect(await presence.records(now: Wallclock.millis()).isEmpty)
                #expect(await presence.joinedURLs().isEmpty)
            }
        }
    }
}
