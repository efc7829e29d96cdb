import NIOCore
import NIOPosix
import PeerdRelay
import PeerdSecurity

/// Reaches relays as this daemon, in both of the relay protocol's modes: asking a relay for a
/// session with a device (protocol mode), and joining a session a relay invited to (session mode),
/// after which the connection is a plain byte pipe to the other device.
struct RelayConnector: Sendable {
    let group: any EventLoopGroup
    /// This daemon's id on every relay: SHA-256 of its certificate.
    let device: RelayDeviceID
    private let tls: Result<RelayTLS, RelayError>

    init(group: any EventLoopGroup, identity: PeerIdentity) {
        self.group = group
        device = RelayDeviceID(certificateDER: identity.certificateDER)
        tls = Result { try RelayTLS(identity: identity) }
            .mapError { .tls("this daemon's certificate or key does not load: \($0)") }
    }

    /// A protocol-mode connection to `relay`, its TLS done and its id checked.
    func open(_ relay: RelayURL, timeout: Duration) async throws(RelayError) -> RelayLink {
        try await RelayLink.open(relay, group: group, tls: try tls.get(), timeout: timeout)
    }

    /// Asks `relay` for a session with `device` (which must be joined to it), all within `timeout`.
    /// The relay invites `device` too, as the session's server; this side is its client.
    func invitation(to device: RelayDeviceID, via relay: RelayURL, timeout: Duration) async throws -> RelayInvitation {
        let started = ContinuousClock.now
        let link = try await open(relay, timeout: timeout)
        return try await link.connection.executeThenClose { inbound, outbound in
            var messages = inbound.makeAsyncIterator()
            let answer = try await link.request(
                .connect(device: device.bytes),
                messages: &messages,
                outbound: outbound,
                within: timeout - started.duration(to: .now),
                what: "answer the request for a session"
            )
            switch answer {
            case .sessionInvitation(let invitation): return try RelayInvitation(invitation, relay: relay)
            case .response(RelayMessage.notFound, _): throw RelayError.notFound
            case .response(let code, let message): throw RelayError.refused(code: code, message: message)
            case .relayFull: throw RelayError.full
            default: throw RelayError.unexpected("a message of type \(answer.type) for a request for a session")
            }
        }
    }

    /// Joins `invitation`'s session on its relay and, once the relay says so, calls `install` on the
    /// channel's event loop to put the caller's handlers above the byte pipe (TLS, frames): bytes
    /// that came right behind the relay's answer go on to them. Returns what `install` returned.
    /// On any failure, `install`'s among them, the channel is closed and this throws.
    ///
    /// When both devices join at the same moment, strelaysrv 1.19 may answer one of them "already
    /// connected" (``RelayError/refused(code:message:)`` with code 2): the session is then lost, and
    /// the caller asks for a new invitation after a short delay.
    func joinSession<T: Sendable>(
        _ invitation: RelayInvitation,
        via relay: RelayURL,
        timeout: Duration,
        install: @escaping @Sendable (any Channel) throws -> T
    ) async throws -> T {
        let joined: EventLoopFuture<T>
        do {
            joined = try await ClientBootstrap(group: group)
                .connectTimeout(TimeAmount(timeout))
                .channelOption(.tcpOption(.tcp_nodelay), value: 1)
                .connect(host: invitation.host, port: invitation.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let promise = channel.eventLoop.makePromise(of: T.self)
                        let joiner = RelaySessionJoiner(
                            key: invitation.key,
                            timeout: TimeAmount(timeout),
                            promise: promise,
                            install: install
                        )
                        try channel.pipeline.syncOperations.addHandler(joiner)
                        return promise.futureResult
                    }
                }
        } catch {
            throw RelayError.connect(RelayLink.words(error, timeout: timeout))
        }
        return try await joined.get()
    }
}
