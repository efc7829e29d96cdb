/// One line of `peerctl doctor`: a check that passed, failed (with its cause and fix) or could not
/// run (with why, in `summary`). `peerctl doctor --json` prints them as they are.
package struct DoctorCheck: Hashable, Sendable, Codable {
    /// What is checked. `peer-reach` and `clock` may come once per peer, `inbound-only` once per peer
    /// that fails it.
    package enum ID: String, Hashable, Sendable, Codable, CaseIterable {
        case daemon
        case avahi
        case registered
        case mdnsNames = "mdns-names"
        case peersSeen = "peers-seen"
        case peerReach = "peer-reach"
        case inboundOnly = "inbound-only"
        case multicast
        case firewall
        case clock
        case permissions
        case systemd
        case relay
        case overlay

        /// What it is about, in a few words: a skipped check's summary starts with it.
        package var title: String {
            switch self {
            case .daemon: "peerd"
            case .avahi: "Avahi"
            case .registered: "our announcement"
            case .mdnsNames: ".local names"
            case .peersSeen: "other peers over mDNS"
            case .peerReach: "reaching peers"
            case .inboundOnly: "one-way reach"
            case .multicast: "multicast"
            case .firewall: "the firewall"
            case .clock: "clocks"
            case .permissions: "permissions"
            case .systemd: "the systemd unit"
            case .relay: "the group's relays"
            case .overlay: "overlay networks"
            }
        }
    }

    package enum Status: String, Hashable, Sendable, Codable {
        case pass, fail
        /// The check could not run; not a failure.
        case skip
    }

    package var id: ID
    package var status: Status
    package var summary: String
    package var cause: String?
    package var fix: String?
    /// The peer a per-peer check is about: its id, and its name when known.
    package var peer: String?
    package var name: String?

    package init(
        _ id: ID,
        _ status: Status,
        _ summary: String,
        cause: String? = nil,
        fix: String? = nil,
        peer: String? = nil,
        name: String? = nil
    ) {
        self.id = id
        self.status = status
        self.summary = summary
        self.cause = cause
        self.fix = fix
        self.peer = peer
        self.name = name
    }

    package static func pass(_ id: ID, _ summary: String) -> DoctorCheck { DoctorCheck(id, .pass, summary) }

    package static func skip(_ id: ID, _ summary: String) -> DoctorCheck { DoctorCheck(id, .skip, summary) }

    /// Skipped: `<title> not checked: <why>`.
    package static func notChecked(_ id: ID, _ why: String) -> DoctorCheck {
        DoctorCheck(id, .skip, "\(id.title) not checked: \(why)")
    }

    package static func fail(_ id: ID, _ summary: String, cause: String, fix: String) -> DoctorCheck {
        DoctorCheck(id, .fail, summary, cause: cause, fix: fix)
    }

    /// The same check, about `peer` (and its name).
    package func about(_ peer: String?, name: String?) -> DoctorCheck {
        var check = self
        (check.peer, check.name) = (peer, name)
        return check
    }
}

/// What `peerctl doctor --json` prints: `ok` when no check failed (a skipped one is no failure).
package struct DoctorReport: Hashable, Sendable, Codable {
    package var ok: Bool
    package var checks: [DoctorCheck]

    package init(checks: [DoctorCheck]) {
        self.checks = checks
        ok = !checks.contains { $0.status == .fail }
    }
}
