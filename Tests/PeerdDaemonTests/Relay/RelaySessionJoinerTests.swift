import NIOCore
import NIOPosix
import PeerdRelay
import PeerdSecurity
import PeerdSync
import Testing

@testable import PeerdDaemon

/// Session mode against a relay of the test's own on loopback, which answers a join as it is told:
/// what follows the answer reaches the caller's handlers, TLS added to the live connection starts
/// its handshake by itself, and a refusal closes the connection with the relay's reason.
@Suite struct RelaySessionJoinerTests {
    typealias Pipe = NIOAsyncChannel<ByteBuffer, ByteBuffer>

    static let key: [UInt8] = Array(1...32)

    @Test func bytesRightBehindTheRelaysAnswerReachWhatWasInstalled() async throws {
        let answer = RelayMessage.response(code: 0, message: "success").encoded + Array("first bytes".utf8)
        try await withFakeRelay(answering: answer) { relay in
            let connector = RelayConnector(group: MultiThreadedEventLoopGroup.singleton, identity: try .generate())
            let pipe = try await connector.joinSession(relay.invitation, via: relay.url, timeout: .seconds(5)) {
                try Pipe(wrappingChannelSynchronously: $0)
            }
            let heard = try await pipe.executeThenClose { inbound, _ in
                try await RelayThroughStrelaysrvTests.hear(11, from: inbound)
            }
            #expect(heard == "first bytes")
            #expect(await relay.joins.first { _ in true } == .joinSession(key: Self.key))
        }
    }

    @Test func tlsAddedToTheJoinedConnectionHandshakesByItself() async throws {
        let server = try PeerIdentity.generate()
        let answer = RelayMessage.response(code: 0, message: "success").encoded
        try await withFakeRelay(answering: answer, thenTLS: try PeerTLS(identity: server)) { relay in
            let client = try PeerIdentity.generate()
            let tls = try PeerTLS(identity: client)
            let connector = RelayConnector(group: MultiThreadedEventLoopGroup.singleton, identity: client)
            let pipe = try await connector.joinSession(relay.invitation, via: relay.url, timeout: .seconds(5)) {
                try tls.addHandler(to: $0, role: .dialer)
                return try Pipe(wrappingChannelSynchronously: $0)
            }
            // Nothing is written: the handshake starts because the handler was added to an active channel.
            let (heard, certificate) = try await pipe.executeThenClose { inbound, _ in
                let heard = try await RelayThroughStrelaysrvTests.hear(
                    FakeSessionRelay.greeting.utf8.count,
                    from: inbound
                )
                return (heard, try await PeerTLS.remote(of: pipe.channel).certificate)
            }
            #expect(heard == FakeSessionRelay.greeting)
            #expect(certificate == server.certificateDER)
        }
    }

    @Test func aRefusalClosesTheConnectionAndSaysWhy() async throws {
        let answer = RelayMessage.response(code: 2, message: "already connected").encoded
        try await withFakeRelay(answering: answer) { relay in
            let connector = RelayConnector(group: MultiThreadedEventLoopGroup.singleton, identity: try .generate())
            let refusal = RelayError.refused(code: 2, message: "already connected")
            await #expect(throws: refusal) {
                try await connector.joinSession(relay.invitation, via: relay.url, timeout: .seconds(5)) { _ in 1 }
            }
            #expect(refusal.description.contains("try again in a moment"))
        }
    }

    @Test func aRelayThatNeverAnswersTimesOut() async throws {
        try await withFakeRelay(answering: []) { relay in
            let connector = RelayConnector(group: MultiThreadedEventLoopGroup.singleton, identity: try .generate())
            await #expect(throws: RelayError.timeout("answer the session join within 200 ms")) {
                try await connector.joinSession(relay.invitation, via: relay.url, timeout: .milliseconds(200)) { _ in 1
                }
            }
        }
    }

    @Test func anInvitationsAddressIsTheRelaysOwnWhenItIsEmptyOrUnspecified() {
        #expect(RelayInvitation.host([]) == nil)
        #expect(RelayInvitation.host([0, 0, 0, 0]) == nil)
        #expect(RelayInvitation.host(Array(repeating: 0, count: 10) + [0xFF, 0xFF, 0, 0, 0, 0]) == nil)
        #expect(RelayInvitation.host(Array(repeating: 0, count: 16)) == nil)
        #expect(RelayInvitation.host([198, 51, 100, 10]) == "198.51.100.10")
        #expect(
            RelayInvitation.host(Array(repeating: 0, count: 10) + [0xFF, 0xFF, 198, 51, 100, 10]) == "198.51.100.10"
        )
        #expect(RelayInvitation.host([0x20, 0x01, 0x0D, 0xB8] + Array(repeating: 0, count: 11) + [7]) == "2001:db8::7")
        #expect(RelayInvitation.host([1, 2, 3]) == nil)
    }
}
