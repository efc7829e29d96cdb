import NIOCore
import NIOSSL
import PeerdRelay

/// Why a relay did not do what was asked, in words for `peerctl relay` and the log.
enum RelayError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The device asked for is not joined to the relay now.
    case notFound
    /// The relay answered with a code other than success.
    case refused(code: Int32, message: String)
    /// The relay takes no more devices.
    case full
    /// The relay said something the protocol does not allow there.
    case unexpected(String)
    /// The relay's certificate is not the one its URL names.
    case wrongRelay(expected: RelayDeviceID, got: RelayDeviceID)
    /// What the relay did not do in time.
    case timeout(String)
    /// The relay closed the connection.
    case closed
    case tls(String)
    case connect(String)

    var description: String {
        switch self {
        case .notFound:
            "the relay does not know that device: it is not joined to this relay now (offline, or on another relay)"
        case .refused(RelayMessage.alreadyConnected, _):
            "the relay says this device is already connected to it (a session joined twice, or a join it has not "
                + "seen end yet); try again in a moment"
        case .refused(RelayMessage.wrongToken, _):
            "the relay wants a token: add &token=… (from the relay's owner) to its URL"
        case .refused(let code, let message): "the relay refused: \(message) (code \(code))"
        case .full: "the relay is full and takes no more devices; it is retried later, or name another relay"
        case .unexpected(let what): "the relay broke its protocol: \(what)"
        case .wrongRelay(let expected, let got):
            "the relay at that address is not the one the group named: its id is \(got), not \(expected) "
                + "(another relay, or one posing as it); nothing was asked of it"
        case .timeout(let what): "the relay did not \(what)"
        case .closed: "the relay closed the connection"
        case .tls(let why): "TLS with the relay failed: \(why)"
        case .connect(let why): "could not reach the relay: \(why)"
        }
    }

    /// The error a failure of the connection's layers stands for.
    static func of(_ error: any Error) -> RelayError {
        switch error {
        case let error as RelayError: error
        case let error as RelayMessageError: .unexpected(error.description)
        case let error as NIOSSLError: .tls("\(error)")
        case let error as BoringSSLError: .tls("\(error)")
        case ChannelError.eof, ChannelError.ioOnClosedChannel, ChannelError.alreadyClosed: .closed
        case let error as IOError: .connect(error.description)
        default: .unexpected("\(error)")
        }
    }
}
