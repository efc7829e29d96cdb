import PeerdRelay
import Testing

/// Syncthing's relay protocol v1 on the wire (docs.syncthing.net/specs/relay-v1): the bytes the
/// reference (syncthing's lib/relay/protocol, genxdr) writes, read back; and what is refused.
@Suite struct RelayMessageTests {
    static func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.filter { !$0.isWhitespace })
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }

    /// Each message as the reference writes it: header (magic, type, length), then XDR.
    static let known: [(RelayMessage, String)] = [
        (.ping, "9E79BC40 00000000 00000000"),
        (.pong, "9E79BC40 00000001 00000000"),
        (.joinRelay(token: ""), "9E79BC40 00000002 00000004 00000000"),
        (.joinRelay(token: "abcde"), "9E79BC40 00000002 0000000C 00000005 6162636465000000"),
        (.joinSession(key: [1, 2, 3]), "9E79BC40 00000003 00000008 00000003 01020300"),
        (.response(code: 0, message: "success"), "9E79BC40 00000004 00000010 00000000 00000007 7375636365737300"),
        (
            .connect(device: [UInt8](repeating: 0xAB, count: 32)),
            "9E79BC40 00000005 00000024 00000020" + String(repeating: "AB", count: 32)
        ),
        (
            .sessionInvitation(
                .init(
                    from: [0xAA, 0xBB],
                    key: [1, 2, 3, 4],
                    address: [203, 0, 113, 7],
                    port: 22067,
                    serverSocket: true
                )
            ),
            "9E79BC40 00000006 00000020 00000002 AABB0000 00000004 01020304 00000004 CB007107 00005633 00000001"
        ),
        (.relayFull, "9E79BC40 00000007 00000000"),
    ]

    @Test func eachMessageIsWrittenAsTheReferenceWritesItAndReadBack() throws {
        for (message, wire) in Self.known {
            let bytes = Self.hex(wire)
            #expect(message.encoded == bytes, "\(message)")
            let header = try RelayMessage.header(bytes)
            #expect(header.length == bytes.count - RelayMessage.headerSize)
            #expect(
                try RelayMessage(type: header.type, body: Array(bytes.dropFirst(RelayMessage.headerSize))) == message
            )
        }
    }

    @Test func anOlderRelaysJoinRequestWithoutATokenReadsAsAnEmptyToken() throws {
        #expect(try RelayMessage(type: 2, body: []) == .joinRelay(token: ""))
    }

    @Test func whatIsNoRelayMessageIsRefusedWithWhy() {
        #expect(throws: RelayMessageError.badMagic) { try RelayMessage.header(Self.hex("9E79BC41 00000000 00000000")) }
        #expect(throws: RelayMessageError.badLength(1_025)) {
            try RelayMessage.header(Self.hex("9E79BC40 00000000 00000401"))
        }
        #expect(throws: RelayMessageError.badLength(-1)) {
            try RelayMessage.header(Self.hex("9E79BC40 00000000 FFFFFFFF"))
        }
        #expect(throws: RelayMessageError.truncated) { try RelayMessage.header(Self.hex("9E79BC40 00000000")) }
        #expect(throws: RelayMessageError.unknownType(8)) { try RelayMessage(type: 8, body: []) }
        #expect(throws: RelayMessageError.tooLong(33)) {
            try RelayMessage(type: 5, body: Self.hex("00000021" + String(repeating: "00", count: 36)))
        }
        #expect(throws: RelayMessageError.truncated) { try RelayMessage(type: 3, body: Self.hex("00000008 0102")) }
        #expect(throws: RelayMessageError.badPadding) { try RelayMessage(type: 3, body: Self.hex("00000003 01020309")) }
        #expect(throws: RelayMessageError.trailingBytes) { try RelayMessage(type: 0, body: [0, 0, 0, 0]) }
        #expect(throws: RelayMessageError.notUTF8) { try RelayMessage(type: 2, body: Self.hex("00000001 FF000000")) }
        let portTooBig = "00000000 00000000 00000000 00010000 00000000"
        #expect(throws: RelayMessageError.badValue("port 65536")) {
            try RelayMessage(type: 6, body: Self.hex(portTooBig))
        }
    }
}
