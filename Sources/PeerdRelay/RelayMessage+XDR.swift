/// Relay messages in their wire form: a header of three 4-byte big-endian words (magic, type, body
/// length), then the body in XDR (RFC 4506): integers as 4-byte big-endian words (a `uint16` and a
/// `bool` too, in a word of their own), strings and byte strings as a length word and the bytes,
/// padded with zeros to a multiple of 4. Written here: XDR for eight small messages is a few words,
/// and no Swift XDR library is in the project's set.
extension RelayMessage {
    /// The message with its header.
    package var encoded: [UInt8] {
        var body = XDRWriter()
        switch self {
        case .ping, .pong, .relayFull: break
        case .joinRelay(let token): body.opaque(Array(token.utf8))
        case .joinSession(let key): body.opaque(key)
        case .response(let code, let message):
            body.word(UInt32(bitPattern: code))
            body.opaque(Array(message.utf8))
        case .connect(let device): body.opaque(device)
        case .sessionInvitation(let invitation):
            body.opaque(invitation.from)
            body.opaque(invitation.key)
            body.opaque(invitation.address)
            body.word(UInt32(invitation.port))
            body.word(invitation.serverSocket ? 1 : 0)
        }
        var message = XDRWriter()
        message.word(Self.magic)
        message.word(UInt32(bitPattern: type))
        message.word(UInt32(body.bytes.count))
        return message.bytes + body.bytes
    }

    /// What a message's header says: its type and its body's length, or why it is no relay message.
    package static func header(_ bytes: some Collection<UInt8>) throws(RelayMessageError) -> (type: Int32, length: Int)
    {
        var reader = XDRReader(Array(bytes.prefix(headerSize)))
        guard bytes.count >= headerSize else { throw .truncated }
        guard try reader.word() == magic else { throw .badMagic }
        let type = Int32(bitPattern: try reader.word())
        let length = Int(Int32(bitPattern: try reader.word()))
        guard (0...maxBody).contains(length) else { throw .badLength(length) }
        return (type, length)
    }

    /// The message of `type` whose body is `body` (exactly: a byte left over is an error).
    package init(type: Int32, body: [UInt8]) throws(RelayMessageError) {
        var reader = XDRReader(body)
        switch type {
        case 0: self = .ping
        case 1: self = .pong
        // An older relay's JoinRelayRequest had no token: an empty body is an empty token.
        case 2: self = .joinRelay(token: body.isEmpty ? "" : try reader.text())
        case 3: self = .joinSession(key: try reader.opaque())
        case 4: self = .response(code: Int32(bitPattern: try reader.word()), message: try reader.text())
        case 5: self = .connect(device: try reader.opaque())
        case 6: self = .sessionInvitation(try Self.invitation(&reader))
        case 7: self = .relayFull
        default: throw .unknownType(type)
        }
        guard reader.isAtEnd else { throw .trailingBytes }
    }

    private static func invitation(_ reader: inout XDRReader) throws(RelayMessageError) -> SessionInvitation {
        let from = try reader.opaque()
        let key = try reader.opaque()
        let address = try reader.opaque()
        let port = try reader.word()
        let server = try reader.word()
        guard port <= UInt32(UInt16.max) else { throw .badValue("port \(port)") }
        guard server <= 1 else { throw .badValue("serverSocket \(server)") }
        return SessionInvitation(from: from, key: key, address: address, port: UInt16(port), serverSocket: server == 1)
    }
}

/// Why bytes are no relay message.
package enum RelayMessageError: Error, Hashable, Sendable, CustomStringConvertible {
    case truncated
    case badMagic
    case badLength(Int)
    case unknownType(Int32)
    case tooLong(Int)
    case badPadding
    case badValue(String)
    case notUTF8
    case trailingBytes

    package var description: String {
        switch self {
        case .truncated: "the relay's message ends early"
        case .badMagic: "not a relay message (its magic is not 0x9E79BC40)"
        case .badLength(let length): "a relay message of \(length) bytes (at most \(RelayMessage.maxBody))"
        case .unknownType(let type): "a relay message of unknown type \(type)"
        case .tooLong(let length): "a relay message's field of \(length) bytes (at most \(RelayMessage.maxOpaque))"
        case .badPadding: "a relay message's padding is not zeros"
        case .badValue(let what): "a relay message's \(what) is out of range"
        case .notUTF8: "a relay message's text is not UTF-8"
        case .trailingBytes: "a relay message has bytes after its fields"
        }
    }
}
