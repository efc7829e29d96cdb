import NIOCore
import NIOSSL
import NIOTLS
import PeerdRelay
import PeerdSecurity

/// TLS to a relay in protocol mode, as Syncthing's relay client speaks it: ALPN `bep-relay`,
/// TLS 1.2 or 1.3 (strelaysrv takes both), this daemon's certificate (the relay names a device by
/// its certificate's SHA-256), and no CA check: a relay is known by its id, which
/// ``RelayHandshake`` compares with the one the group's URL names.
struct RelayTLS: Sendable {
    /// The protocol name both ends offer in ALPN.
    static let protocolName = "bep-relay"

    private let context: NIOSSLContext

    init(identity: PeerIdentity) throws {
        var configuration = TLSConfiguration.makeClientConfiguration()
        (configuration.certificateChain, configuration.privateKey) = try PeerTLS.credentials(of: identity)
        configuration.minimumTLSVersion = .tlsv12
        configuration.maximumTLSVersion = .tlsv13
        configuration.applicationProtocols = [Self.protocolName]
        // The relay's certificate is self-signed: the handshake keeps it, and its id is checked after.
        configuration.certificateVerification = .none
        configuration.trustRoots = .certificates([])
        configuration.shutdownTimeout = .seconds(1)
        context = try NIOSSLContext(configuration: configuration)
    }

    /// Adds TLS and the check of the relay's id to a new channel; the future is the relay's id,
    /// once the handshake is done and the id is the one `relay` names (if it names one).
    func addHandlers(
        to channel: any Channel,
        relay: RelayURL,
        timeout: TimeAmount
    ) throws -> EventLoopFuture<RelayDeviceID> {
        // SNI for a name, as Syncthing sends; an IP address may not be sent as one.
        let name = (try? SocketAddress(ipAddress: relay.host, port: 0)) == nil ? relay.host : nil
        let promise = channel.eventLoop.makePromise(of: RelayDeviceID.self)
        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: name))
        try channel.pipeline.syncOperations.addHandler(
            RelayHandshake(expected: relay.id, timeout: timeout, promise: promise)
        )
        return promise.futureResult
    }
}

/// Waits for the TLS handshake with a relay, then checks what it agreed to: the relay protocol in
/// ALPN, and a certificate whose SHA-256 is the expected id. Fails its promise (and closes the
/// channel) otherwise, or when the handshake takes longer than `timeout`; then steps aside.
final class RelayHandshake: ChannelInboundHandler, RemovableChannelHandler, RelayWaiting {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let expected: RelayDeviceID?
    private let timeout: TimeAmount
    let promise: EventLoopPromise<RelayDeviceID>
    var timer: Scheduled<Void>?
    var done = false

    init(expected: RelayDeviceID?, timeout: TimeAmount, promise: EventLoopPromise<RelayDeviceID>) {
        self.expected = expected
        self.timeout = timeout
        self.promise = promise
    }

    func handlerAdded(context: ChannelHandlerContext) {
        startDeadline(timeout, for: "finish TLS", context: context)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard !done, case TLSUserEvent.handshakeCompleted(let negotiated) = event else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        do {
            let relay = try check(context: context, negotiated: negotiated)
            finish()
            promise.succeed(relay)
            context.fireUserInboundEventTriggered(event)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        } catch {
            fail(RelayError.of(error), context: context)
        }
    }

    private func check(context: ChannelHandlerContext, negotiated: String?) throws(RelayError) -> RelayDeviceID {
        guard negotiated == RelayTLS.protocolName else {
            throw .unexpected("it did not agree to speak the relay protocol in TLS (ALPN \(negotiated ?? "none"))")
        }
        let tls = try? context.pipeline.syncOperations.handler(type: NIOSSLHandler.self)
        guard let certificate = tls?.peerCertificate, let der = try? certificate.toDERBytes() else {
            throw .tls("the relay presented no certificate")
        }
        let relay = RelayDeviceID(certificateDER: der)
        if let expected, expected != relay { throw .wrongRelay(expected: expected, got: relay) }
        return relay
    }
}
