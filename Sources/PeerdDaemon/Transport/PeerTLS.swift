import NIOCore
import NIOSSL
import PeerdModel
import PeerdSecurity
import PeerdSync

/// TLS 1.3 for peer connections, both ways, with this daemon's key and certificate.
///
/// Every certificate passes the TLS layer's own check: peers are self-signed and pinned by key
/// fingerprint, and who the other end *is* (its fingerprint) and whether it is *trusted* are
/// decided right after, by admission. TLS itself still proves the other end holds that key.
struct PeerTLS: Sendable {
    let identity: PeerIdentity
    private let server: NIOSSLContext
    private let client: NIOSSLContext

    init(identity: PeerIdentity) throws {
        self.identity = identity
        let (chain, key) = try Self.credentials(of: identity)
        var server = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: key)
        var client = TLSConfiguration.makeClientConfiguration()
        client.certificateChain = chain
        client.privateKey = key
        server.minimumTLSVersion = .tlsv13
        server.maximumTLSVersion = .tlsv13
        client.minimumTLSVersion = .tlsv13
        client.maximumTLSVersion = .tlsv13
        // Not `.none`: a server with `.none` would not ask for the client's certificate.
        server.certificateVerification = .noHostnameVerification
        client.certificateVerification = .noHostnameVerification
        // `acceptAny` below decides instead of a trust store, so don't load the system's CA bundle:
        // parsing it took 1.6 MB of heap at start that stayed resident.
        server.trustRoots = .certificates([])
        client.trustRoots = .certificates([])
        // How long a close waits for the peer's close_notify (swift-nio-ssl's default is 5 s): a
        // peer that stopped reading must not hold a finished session's socket that long.
        server.shutdownTimeout = .seconds(1)
        client.shutdownTimeout = .seconds(1)
        self.server = try NIOSSLContext(configuration: server)
        self.client = try NIOSSLContext(configuration: client)
    }

    /// `identity`'s certificate and key as NIOSSL takes them: what this daemon presents to peers,
    /// and to relays (``RelayTLS``).
    static func credentials(of identity: PeerIdentity) throws -> (
        chain: [NIOSSLCertificateSource], key: NIOSSLPrivateKeySource
    ) {
        let certificate = try NIOSSLCertificate(bytes: identity.certificateDER, format: .der)
        let key = try NIOSSLPrivateKey(bytes: Array(identity.privateKeyPEM.utf8), format: .pem)
        return ([.certificate(certificate)], .privateKey(key))
    }

    /// Adds the TLS handler for one side of a connection.
    func addHandler(to channel: any Channel, role: PeerConnection.Role) throws {
        let handler: NIOSSLHandler =
            switch role {
            case .acceptor: NIOSSLServerHandler(context: server, customVerificationCallback: Self.acceptAny)
            case .dialer:
                try NIOSSLClientHandler(
                    context: client,
                    serverHostname: nil,
                    customVerificationCallback: Self.acceptAny
                )
            }
        try channel.pipeline.syncOperations.addHandler(handler)
    }

    private static func acceptAny(
        _ certificates: [NIOSSLCertificate],
        _ promise: EventLoopPromise<NIOSSLVerificationResult>
    ) {
        promise.succeed(certificates.isEmpty ? .failed : .certificateVerified)
    }

    /// The other end's certificate (DER) and its key's fingerprint, once the handshake is done.
    static func remote(of channel: any Channel) async throws -> (peer: PeerID, certificate: [UInt8]) {
        guard let certificate = try await channel.nioSSL_peerCertificate().get() else {
            throw PeerTLSError.noCertificate
        }
        let spki = try certificate.extractPublicKey().toSPKIBytes()
        return (Fingerprint.peer(ofPublicKeyDER: spki), try certificate.toDERBytes())
    }
}

enum PeerTLSError: Error, CustomStringConvertible {
    case noCertificate

    var description: String { "the peer presented no certificate" }

    /// "TLS: …" for failures of the TLS layer, the error itself otherwise.
    static func describe(_ error: any Error) -> String {
        if let error = error as? NIOSSLError { return "TLS: \(error)" }
        if let error = error as? BoringSSLError { return "TLS: \(error)" }
        return "\(error)"
    }
}
