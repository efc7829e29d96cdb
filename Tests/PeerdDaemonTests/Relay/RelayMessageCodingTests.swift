import NIOCore
import NIOEmbedded
import NIOTestUtils
import PeerdRelay
import PeerdWire
import Testing

@testable import PeerdDaemon

/// Relay messages through the channel's decoder, byte by byte and in batches.
@Suite struct RelayMessageCodingTests {
    @Test func messagesAreReadWhicheverWayTheirBytesArrive() throws {
        let messages: [RelayMessage] = [
            .ping, .pong, .joinRelay(token: "abc"), .response(code: 0, message: "success"),
            .sessionInvitation(
                .init(
                    from: Array(repeating: 7, count: 32),
                    key: [1, 2, 3],
                    address: [],
                    port: 22067,
                    serverSocket: true
                )
            ),
            .relayFull,
        ]
        let pairs = messages.map { (ByteBuffer(bytes: $0.encoded), [$0]) }
        try ByteToMessageDecoderVerifier.verifyDecoder(inputOutputPairs: pairs) { RelayMessageDecoder() }
    }

    @Test func anOversizedMessageIsRefusedFromItsHeader() {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(RelayMessageDecoder()))
        let header: [UInt8] = [0x9E, 0x79, 0xBC, 0x40, 0, 0, 0, 0, 0, 0, 0x04, 0x01]
        #expect(throws: RelayMessageError.badLength(1_025)) { try channel.writeInbound(ByteBuffer(bytes: header)) }
    }

    @Test func aStandingSaysWhenTheNextTryIs() {
        var standing = RelayStanding(url: RelayURL(host: "198.51.100.10", port: 22067))
        #expect(standing.record(now: 0).state == .joining)
        standing.joined(at: 1_000)
        standing.latencyMs = 3
        #expect(standing.record(now: 2_000).joinedSince == 1_000)
        standing.failed(.closed, retryAt: 5_000)
        let record = standing.record(now: 3_500)
        #expect(record.state == .retrying)
        #expect(record.retryIn == 1.5)
        #expect(record.latencyMs == nil && record.joinedSince == nil)
        #expect(record.lastError == "the relay closed the connection")
        standing.joining()
        #expect(standing.record(now: 6_000).retryIn == nil)
        #expect(standing.record(now: 6_000).lastError == "the relay closed the connection")
    }
}
