import NIOCore
import PeerdRelay

/// A relay's invitation to a session with another device: who, and where and with which key to join.
struct RelayInvitation: Sendable, Hashable {
    /// The other device.
    var from: RelayDeviceID
    /// What opens this side of the session (the relay's `JoinSessionRequest`).
    var key: [UInt8]
    var host: String
    var port: Int
    /// Whether this side is the session's server: the one asked for is, the one who asked is not.
    /// Whatever runs inside the session takes its roles from it (TLS server or client).
    var serverSocket: Bool

    init(from: RelayDeviceID, key: [UInt8], host: String, port: Int, serverSocket: Bool) {
        self.from = from
        self.key = key
        self.host = host
        self.port = port
        self.serverSocket = serverSocket
    }

    /// The invitation as the relay `relay` wrote it. An empty or all-zero address (a relay
    /// listening on every address) means the relay's own host, as Syncthing reads it.
    init(_ message: RelayMessage.SessionInvitation, relay: RelayURL) throws(RelayError) {
        guard let from = RelayDeviceID(bytes: message.from) else {
            throw .unexpected("an invitation from an id of \(message.from.count) bytes")
        }
        guard !message.key.isEmpty else { throw .unexpected("an invitation without a key") }
        self.init(
            from: from,
            key: message.key,
            host: Self.host(message.address) ?? relay.host,
            port: message.port == 0 ? relay.port : Int(message.port),
            serverSocket: message.serverSocket
        )
    }

    /// An IP address's text; nil for none, an unspecified one, or bytes that are no address.
    /// Go writes an IPv4 address in 4 bytes or in 16 (`::ffff:a.b.c.d`); both read as `a.b.c.d`.
    static func host(_ address: [UInt8]) -> String? {
        let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xFF, 0xFF]
        let bytes = address.count == 16 && address.starts(with: mappedPrefix) ? Array(address.suffix(4)) : address
        guard bytes.count == 4 || bytes.count == 16, bytes.contains(where: { $0 != 0 }),
            let socket = try? SocketAddress(packedIPAddress: ByteBuffer(bytes: bytes), port: 0),
            let text = socket.ipAddress
        else { return nil }
        return text
    }
}
