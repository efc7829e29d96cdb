import PeerdModel
import PeerdRelay
import PeerdSync

/// A peer session inside a relay's session, the same whichever end asked the relay: peerd's own TLS
/// and frames on the byte pipe (``PeerChannel``), in the role the relay gave, and the relay's
/// `host:port` as the connection's address and path (proto/PEER.md, "Relays and reach").
extension PeerSessionFactory {
    /// How long a relay may take to answer a request for a session, and then to join it.
    static let relayTimeout = Duration.seconds(10)

    /// Joins `invitation`'s session on `relay` with TLS and frames on it; `gate` caps the
    /// connections waiting for admission (the listener's, for a session this end was asked for).
    func relayedChannel(
        _ invitation: RelayInvitation,
        via relay: RelayURL,
        connector: RelayConnector,
        gate: AdmissionGate?
    ) async throws -> PeerChannel {
        let (tls, role) = (self.tls, invitation.role)
        return try await connector.joinSession(invitation, via: relay, timeout: Self.relayTimeout) {
            try PeerChannel.wrap($0, role: role, tls: tls, gate: gate)
        }
    }

    /// The session on a channel ``relayedChannel(_:via:connector:gate:)`` made.
    func relayedConnection(
        _ channel: PeerChannel,
        _ invitation: RelayInvitation,
        via relay: RelayURL,
        source: PeerSource,
        expected: PeerID? = nil
    ) -> PeerConnection {
        connection(
            channel,
            role: invitation.role,
            address: relay.address,
            source: source,
            expected: expected,
            via: relay.address
        )
    }
}

extension RelayInvitation {
    /// The one asked for is the TLS server and accepts; the one who asked dials.
    var role: PeerConnection.Role { serverSocket ? .acceptor : .dialer }
}
