package import PeerdWire

/// `peerctl doctor`'s judgement, pure: what the daemon said and what peerctl read on this machine,
/// turned into checks, each with its cause and its fix. peerctl gathers the facts; this decides.
package struct Doctor: Sendable {
    /// What the daemon answered.
    package struct DaemonFacts: Sendable {
        package var status: StatusRecord
        package var peers: [PeerRecord]
        /// Nil when the daemon doesn't know `diagnose` (an older peerd).
        package var diagnosis: DiagnosisRecord?

        package init(status: StatusRecord, peers: [PeerRecord], diagnosis: DiagnosisRecord?) {
            self.status = status
            self.peers = peers
            self.diagnosis = diagnosis
        }
    }

    /// What peerctl read on this machine.
    package struct LocalFacts: Sendable {
        package var interfaces: [NetworkInterface]
        package var firewall: FirewallReading
        /// The text of /etc/nsswitch.conf, if it could be read.
        package var nsswitch: String?
        package var files: FileFacts
        package var systemd: SystemdUnitState

        package init(
            interfaces: [NetworkInterface],
            firewall: FirewallReading,
            nsswitch: String?,
            files: FileFacts,
            systemd: SystemdUnitState
        ) {
            self.interfaces = interfaces
            self.firewall = firewall
            self.nsswitch = nsswitch
            self.files = files
            self.systemd = systemd
        }
    }

    /// The daemon's answers, or why it didn't answer.
    package var daemon: Result<DaemonFacts, DaemonUnreachable>
    /// The socket peerctl asked on.
    package var socket: String
    package var local: LocalFacts

    package init(daemon: Result<DaemonFacts, DaemonUnreachable>, socket: String, local: LocalFacts) {
        self.daemon = daemon
        self.socket = socket
        self.local = local
    }

    /// Clocks further apart than this make operation times and "added 2 h ago" wrong.
    package static let skewLimitMs: Int64 = 60_000

    /// The port peers dial when the daemon can't say (the default).
    package static let defaultPort = 7601

    /// Every check, in the order `peerctl doctor` prints them.
    package func checks() -> [DoctorCheck] {
        let firewall = firewallCheck()
        let multicast = multicastCheck()
        var checks = [daemonCheck()]
        guard case .success(let facts) = daemon, let diagnosis = facts.diagnosis else {
            let why = daemonSkipReason
            checks += [.avahi, .registered, .mdnsNames, .peersSeen, .peerReach, .inboundOnly].map {
                .notChecked($0, why)
            }
            return checks + [
                multicast, firewall.check, .notChecked(.clock, why), .notChecked(.permissions, why), systemdCheck(),
            ]
        }
        let discovery = diagnosis.discovery
        checks += [avahiCheck(discovery), registeredCheck(discovery), mdnsNamesCheck(discovery)]
        checks.append(
            peersSeenCheck(facts, firewallDropsMDNS: firewall.dropsMDNS, multicastOff: multicast.status == .fail)
        )
        checks += peerReachChecks(facts, diagnosis)
        checks += inboundOnlyChecks(facts, diagnosis)
        checks += [multicast, firewall.check]
        checks += clockChecks(diagnosis)
        return checks + [permissionsCheck(facts.status), systemdCheck()]
    }

    /// Why the daemon's checks can't run.
    var daemonSkipReason: String {
        switch daemon {
        case .failure: "needs the daemon, which doesn't answer (see daemon)"
        case .success: "needs `diagnose`, which this peerd doesn't know: restart it after upgrading (see daemon)"
        }
    }

    /// The port peers dial: the daemon's, else the default.
    var port: Int {
        if case .success(let facts) = daemon { return facts.status.port }
        return Self.defaultPort
    }
}

/// Why the daemon didn't answer, in words (the control client's message).
package struct DaemonUnreachable: Error, Hashable, Sendable {
    package var message: String

    package init(_ message: String) {
        self.message = message
    }
}
