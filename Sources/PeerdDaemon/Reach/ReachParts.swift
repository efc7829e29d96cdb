import Logging
import NIOCore
import PeerdRelay
import PeerdSecurity
import ServiceLifecycle

/// What reaches members beyond the LAN (proto/PEER.md, "Relays and reach"): the relay client, this
/// daemon's presence on the group's relays, the sessions relays invite it to, the keeper of the
/// group's relays and announcements, and the control desk of `peerctl relay`.
struct ReachParts {
    let presence: RelayPresence
    let keeper: ReachKeeper
    let desk: RelayDesk

    /// In the order they start; the last stops first.
    var services: [any Service] { [presence, keeper] }

    init(
        connector: RelayConnector,
        sessions: PeerSessionFactory,
        gate: AdmissionGate,
        dialer: PeerDialer,
        listening: (host: String, port: Int),
        logger: Logger
    ) {
        let invitations = RelayInvitations(connector: connector, sessions: sessions, gate: gate, logger: logger)
        presence = RelayPresence(connector: connector, logger: logger) { invitation, relay in
            await invitations.accept(invitation, via: relay)
        }
        keeper = ReachKeeper(
            replica: sessions.replica,
            presence: presence,
            dialer: dialer,
            device: connector.device,
            listening: listening,
            logger: logger
        )
        desk = RelayDesk(
            replica: sessions.replica,
            presence: presence,
            directory: sessions.directory,
            device: connector.device
        )
    }
}
