/// One message of Syncthing's relay protocol v1 (docs.syncthing.net/specs/relay-v1; the reference
/// is syncthing's lib/relay/protocol): what a device and a relay say in protocol mode, and the one
/// message that opens session mode. peerd speaks it as a client only, so that a session between two
/// houses can ride through Debian's `strelaysrv` while peerd's own TLS and admission run inside.
package enum RelayMessage: Hashable, Sendable {
    case ping
    case pong
    /// A device asks to be reachable through the relay (permanent mode); `token` is empty unless
    /// the relay asks for one.
    case joinRelay(token: String)
    /// A device opens session mode with the key a `SessionInvitation` gave it.
    case joinSession(key: [UInt8])
    /// The relay's answer to a request: code 0 is success.
    case response(code: Int32, message: String)
    /// A device asks to meet another device (its 32-byte id) through the relay.
    case connect(device: [UInt8])
    /// The relay's invitation to a session: who asks, the session's key, where to join it (an
    /// empty address means the relay's own), and whether the invitee is the server side.
    case sessionInvitation(SessionInvitation)
    /// The relay takes no more devices.
    case relayFull

    package struct SessionInvitation: Hashable, Sendable {
        package var from: [UInt8]
        package var key: [UInt8]
        package var address: [UInt8]
        package var port: UInt16
        package var serverSocket: Bool

        package init(from: [UInt8], key: [UInt8], address: [UInt8], port: UInt16, serverSocket: Bool) {
            self.from = from
            self.key = key
            self.address = address
            self.port = port
            self.serverSocket = serverSocket
        }
    }

    /// The responses the reference relay sends.
    package static let success: Int32 = 0
    package static let notFound: Int32 = 1
    package static let alreadyConnected: Int32 = 2
    package static let wrongToken: Int32 = 3
    package static let unexpectedMessage: Int32 = 100

    /// The header's first word, in every message.
    package static let magic: UInt32 = 0x9E79_BC40
    /// The longest body a message may have (the reference refuses longer ones).
    package static let maxBody = 1_024
    /// The longest id, key and address (the reference's `max:32`).
    package static let maxOpaque = 32
    /// The header: magic, type and body length, each a 4-byte big-endian word.
    package static let headerSize = 12

    /// The message's type in the header.
    package var type: Int32 {
        switch self {
        case .ping: 0
        case .pong: 1
        case .joinRelay: 2
        case .joinSession: 3
        case .response: 4
        case .connect: 5
        case .sessionInvitation: 6
        case .relayFull: 7
        }
    }
}
