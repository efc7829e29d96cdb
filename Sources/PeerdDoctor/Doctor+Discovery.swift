import PeerdModel
import PeerdWire

/// The daemon and mDNS: is peerd there, is Avahi, is our service announced, do `.local` names
/// resolve, are other peers seen.
extension Doctor {
    func daemonCheck() -> DoctorCheck {
        switch daemon {
        case .failure(let unreachable):
            return .fail(
                .daemon,
                "no peerd answers on \(socket)",
                cause: String(unreachable.message.split(separator: "\n").first ?? ""),
                fix: "start it: systemctl --user start peerd (or run peerd); "
                    + "if it runs with --socket PATH, give peerctl the same --socket"
            )
        case .success(let facts):
            let status = facts.status
            var summary = "peerd answers on \(socket): \(status.name) (\(status.peer.short)), version \(status.version)"
            if facts.diagnosis == nil { summary += ", but it doesn't know `diagnose`: restart it after upgrading" }
            return .pass(.daemon, summary)
        }
    }

    func avahiCheck(_ discovery: DiscoveryRecord) -> DoctorCheck {
        let start = "start it: sudo systemctl start avahi-daemon (and sudo systemctl enable avahi-daemon)"
        switch discovery.avahi {
        case .off: return .notChecked(.avahi, Self.discoveryOff)
        case .starting: return .skip(.avahi, "the daemon's Avahi client is still starting; run doctor again")
        case .running:
            let host = discovery.hostName.map { " (host name \($0))" } ?? ""
            return .pass(.avahi, "avahi-daemon is running: peerd talks to it over D-Bus\(host)")
        case .connecting:
            return .fail(
                .avahi,
                "avahi-daemon isn't reachable over D-Bus: peerd's Avahi client waits for it",
                cause: discovery.avahiError ?? "avahi-daemon is not running",
                fix: start + "; peerd picks it up by itself"
            )
        case .failed:
            return .fail(
                .avahi,
                "peerd's Avahi client failed",
                cause: discovery.avahiError ?? "unknown",
                fix: "check avahi-daemon and D-Bus (systemctl status avahi-daemon dbus); " + start
                    + "; then restart peerd"
            )
        }
    }

    func registeredCheck(_ discovery: DiscoveryRecord, blocked: String?) -> DoctorCheck {
        if let skip = Self.discoverySkip(discovery) { return .notChecked(.registered, skip) }
        let service = "our service '\(discovery.service ?? "?")' (\(Self.serviceType), port \(port))"
        guard discovery.registered == true else {
            return .fail(
                .registered,
                "our service isn't announced on the LAN",
                cause: discovery.registerError ?? "Avahi hasn't established our entry group (yet)",
                fix: "if it stays so, see avahi-daemon's log: journalctl -u avahi-daemon"
            )
        }
        guard discovery.selfSeen == true else {
            return .fail(
                .registered,
                "\(service) is announced, but our own browse doesn't see it",
                cause: blocked.map { "\($0): Avahi doesn't hear its own announcements" } ?? discovery.browseError
                    ?? "Avahi's browse doesn't report it: Avahi may use no interface here (see multicast)",
                fix: "check that avahi-daemon uses this interface (allow-interfaces in "
                    + "/etc/avahi/avahi-daemon.conf) and that multicast is on; "
                    + "avahi-browse -rt \(Self.serviceType) should list it"
            )
        }
        return .pass(.registered, "\(service) is announced, and our own browse sees it")
    }

    func mdnsNamesCheck(_ discovery: DiscoveryRecord, blocked: String?) -> DoctorCheck {
        if let skip = Self.discoverySkip(discovery) { return .notChecked(.mdnsNames, skip) }
        let nss = NSSwitch.hostsModules(local.nsswitch)
        let system: String
        if let module = nss?.first(where: { $0.hasPrefix("mdns") }) {
            system = "the system resolver uses nss-mdns too (\(module) in /etc/nsswitch.conf)"
        } else {
            system =
                "the system resolver has no nss-mdns (no mdns in the hosts line of /etc/nsswitch.conf), so other "
                + "programs can't resolve .local names (install libnss-mdns); peerd itself doesn't need it"
        }
        let host = discovery.hostName ?? "this host's .local name"
        switch discovery.hostResolved {
        case nil: return .skip(.mdnsNames, "\(host) hasn't been resolved yet; \(system)")
        case true?:
            let address = discovery.hostAddress.map { " (\($0))" } ?? ""
            return .pass(.mdnsNames, "\(host) resolves through Avahi\(address); \(system)")
        case false?:
            return .fail(
                .mdnsNames,
                "\(host) doesn't resolve through Avahi; \(system)",
                cause: (blocked.map { "\($0); Avahi says: " } ?? "") + (discovery.hostError ?? "no address found"),
                fix: (blocked == nil ? "" : "mend that first; then ")
                    + "check that avahi-daemon publishes addresses (publish-addresses=yes in "
                    + "/etc/avahi/avahi-daemon.conf), restart it (sudo systemctl restart avahi-daemon), "
                    + "then try: avahi-resolve -n \(host)"
            )
        }
    }

    func peersSeenCheck(_ facts: DaemonFacts, blocked: String?) -> DoctorCheck {
        guard let discovery = facts.diagnosis?.discovery else { return .notChecked(.peersSeen, daemonSkipReason) }
        if let skip = Self.discoverySkip(discovery) { return .notChecked(.peersSeen, skip) }
        let seen = Self.otherServices(discovery, local: facts.status.peer)
        let names = seen.map(\.name).joined(separator: ", ")
        let known = facts.peers.filter { record in
            record.source != .mdns && !seen.contains { $0.peer == record.peer }
        }
        let knownNames = known.map { $0.name ?? $0.peer?.short ?? $0.address ?? "?" }
        guard seen.isEmpty else {
            let unseen = knownNames.isEmpty ? "" : "; known but not seen: \(knownNames.joined(separator: ", "))"
            return .pass(
                .peersSeen,
                "\(seen.count) other peer\(seen.count == 1 ? "" : "s") seen over mDNS: \(names)\(unseen)"
            )
        }
        var summary = "no other peer's service is seen over mDNS"
        if !known.isEmpty { summary += ", although \(known.count) known: \(knownNames.joined(separator: ", "))" }
        let first = blocked.map { "First: \($0). " } ?? ""
        return .fail(
            .peersSeen,
            summary,
            cause: "mDNS announcements and answers from other machines don't arrive here (or no other peerd runs "
                + "on this LAN yet)",
            fix: first + Self.mdnsCauses
        )
    }

    static let mdnsCauses =
        "Usual causes: a firewall dropping UDP 5353, here or on the others (allow 5353/udp); client/AP isolation "
        + "on the Wi-Fi access point or bridge (turn isolation off, or use a network without it); different VLANs "
        + "or subnets (mDNS stays on one link: peerctl connect HOST:PORT instead); avahi-daemon stopped on the "
        + "others (sudo systemctl start avahi-daemon there)."

    static let serviceType = "_watchlist._tcp"

    static let discoveryOff = "discovery is off (--no-mdns): peers are found only by address (--peer, peerctl connect)"

    /// Why a check of what Avahi sees can't run, if it can't.
    static func discoverySkip(_ discovery: DiscoveryRecord) -> String? {
        switch discovery.avahi {
        case .off: discoveryOff
        case .running: nil
        case .starting, .connecting, .failed: "can't look: Avahi isn't running (see avahi)"
        }
    }

    /// Other peers' services Avahi resolves now, one per peer id.
    static func otherServices(_ discovery: DiscoveryRecord, local: PeerID) -> [(name: String, peer: PeerID)] {
        var seen: [(name: String, peer: PeerID)] = []
        for service in discovery.services ?? [] {
            guard let peer = service.peer, peer != local, !seen.contains(where: { $0.peer == peer }) else { continue }
            seen.append((service.name, peer))
        }
        return seen
    }
}
