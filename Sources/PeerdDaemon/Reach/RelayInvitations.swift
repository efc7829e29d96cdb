import Logging
import PeerdRelay

/// Runs a peer session in each session a relay invites this daemon to: another member asked the
/// relay for it. The relay only forwards bytes; TLS and admission inside decide who the other end
/// is and whether it is a member, as on a TCP connection (proto/SECURITY.md, "Relays").
/// ``RelayPresence`` calls ``accept(_:via:)`` in a task of its own for each invitation.
struct RelayInvitations: Sendable {
    let connector: RelayConnector
    let sessions: PeerSessionFactory
    /// The listener's: relayed connections count against the same cap on pending admissions.
    let gate: AdmissionGate
    let logger: Logger

    func accept(_ invitation: RelayInvitation, via relay: RelayURL) async {
        let channel: PeerChannel
        do {
            channel = try await sessions.relayedChannel(invitation, via: relay, connector: connector, gate: gate)
        } catch {
            logger.info(
                "could not join a session the relay offered",
                metadata: ["relay": "\(relay.address)", "from": "\(invitation.from)", "error": "\(error)"]
            )
            return
        }
        _ = await sessions.relayedConnection(channel, invitation, via: relay, source: .inbound).run()
    }
}
