import PeerdModel
import PeerdWire

/// The group's relays as this daemon stands with each, and the overlay networks mDNS doesn't cross
/// (proto/PEER.md, "Relays and reach").
extension Doctor {
    /// One line per relay of the group's: joined, with its round trip and sessions, or why not.
    func relayChecks(_ diagnosis: DiagnosisRecord) -> [DoctorCheck] {
        guard let relays = diagnosis.relays else {
            return [.notChecked(.relay, "this peerd is older than relays")]
        }
        guard !relays.isEmpty else {
            return [
                .skip(
                    .relay,
                    "the group has no relay (one is only needed for members in another house: peerctl relay --help)"
                )
            ]
        }
        return relays.map(relayCheck)
    }

    private func relayCheck(_ relay: RelayRecord) -> DoctorCheck {
        switch relay.state {
        case .joined:
            let latency = relay.latencyMs.map { "\(RelayRecord.words(ms: $0)) round trip" } ?? "no ping answered yet"
            let sessions = relay.sessions == 1 ? "1 session" : "\(relay.sessions) sessions"
            return .pass(.relay, "joined the relay \(relay.address): reachable, \(latency), \(sessions) through it")
        case .joining:
            return DoctorCheck(
                .relay,
                .fail,
                "still joining the relay \(relay.address)",
                cause: relay.lastError ?? "its TLS handshake or its answer to the join has not come yet",
                fix: "run peerctl doctor again in a few seconds; if it stays so, see the relay's own log"
            )
        case .retrying:
            let retry = relay.retryIn.map { " (peerd tries again in \(Int($0.rounded())) s)" } ?? ""
            return DoctorCheck(
                .relay,
                .fail,
                "can't join the relay \(relay.address)\(retry)",
                cause: relay.lastError ?? "the relay did not answer",
                fix: "check that strelaysrv runs there and that TCP \(relay.address) is open to this machine "
                    + "(nc -vz \(Self.ncTarget(relay.address))); members in this house still reach each other directly"
            )
        }
    }

    /// An overlay network (Tailscale, WireGuard, ZeroTier) joins houses, but mDNS does not cross
    /// it (tailscale#1013): its peers are named by address.
    func overlayCheck() -> DoctorCheck {
        let overlays = local.interfaces.filter {
            Self.isOverlay($0.name) && $0.hasAddress && $0.flags & NetworkInterface.up != 0
        }
        guard !overlays.isEmpty else { return .skip(.overlay, "no overlay network here (Tailscale, WireGuard)") }
        let names = overlays.map(\.name).joined(separator: ", ")
        return .pass(
            .overlay,
            "\(names) is an overlay network: mDNS does not cross it, so name a peer on it by its overlay address: "
                + "peerctl connect 100.x.y.z:\(port) (or peerd --peer); a relay needs no overlay at all"
        )
    }

    /// `host port` from `host:port`, as `nc` takes them.
    static func ncTarget(_ address: String) -> String {
        PeerAddress(address, defaultPort: nil).map { "\($0.host) \($0.port)" } ?? address
    }

    /// `tailscale0`, `wg0`, `wg-home`, `zt…` (ZeroTier): the names those tools give their interfaces.
    static func isOverlay(_ name: String) -> Bool {
        ["tailscale", "wg", "zt", "nebula"].contains { name.hasPrefix($0) }
    }
}
