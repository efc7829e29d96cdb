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

        /// Where the peers connected to us only inbound listen: the daemon doesn't dial them while
        /// they are connected, so peerctl tries a TCP connection itself (for `inbound-only`).
        package var probeAddresses: [String] {
            guard let sessions = diagnosis?.sessions else { return [] }
            let outbound = Set(sessions.filter { $0.direction == .outbound }.map(\.peer))
            let addresses = sessions.filter {
                $0.direction == .inbound && $0.silentMs == nil && !outbound.contains($0.peer)
            }
            .compactMap(listenAddress)
            return Array(Set(addresses)).sorted()
        }

        /// Where a session's peer listens: its best known address with its hello's port (mDNS's
        /// carries a link-local address's scope), else its connection's host with that port.
        func listenAddress(_ session: SessionRecord) -> String? {
            let known = peers.first { $0.peer == session.peer }?.addresses ?? []
            return known.first { session.port != nil && DialRecord.port(of: $0) == session.port }
                ?? session.listenAddress
        }

        /// The results of those TCP connections, as dial results at the daemon's time.
        package mutating func add(probes: [(address: String, outcome: DialRecord.Outcome)]) {
            guard var diagnosis else { return }
            for (address, outcome) in probes {
                let peer = diagnosis.sessions.first { listenAddress($0) == address }?.peer
                let words = outcome == .ok ? "connected" : outcome.rawValue
                diagnosis.dials.append(
                    DialRecord(
                        address: address,
                        peer: peer,
                        expected: peer,
                        at: diagnosis.at,
                        stage: .tcp,
                        outcome: outcome,
                        message: "peerctl doctor's own TCP connection to \(address): \(words)"
                    )
                )
            }
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
            // An older peerd still answers `status`: its files can be looked at.
            let permissions = (try? daemon.get()).map { permissionsCheck($0.status) }
            return checks + [
                multicast, firewall.check, .notChecked(.clock, why), permissions ?? .notChecked(.permissions, why),
                systemdCheck(), .notChecked(.relay, why), overlayCheck(),
            ]
        }
        let discovery = diagnosis.discovery
        let blocked = Self.mdnsBlockedHere(firewallDropsMDNS: firewall.dropsMDNS, multicast: multicast)
        checks += [avahiCheck(discovery), registeredCheck(discovery, blocked: blocked)]
        checks += [mdnsNamesCheck(discovery, blocked: blocked), peersSeenCheck(facts, blocked: blocked)]
        checks += peerReachChecks(facts, diagnosis)
        checks += inboundOnlyChecks(facts, diagnosis)
        checks += [multicast, firewall.check]
        checks += clockChecks(diagnosis)
        return checks + [permissionsCheck(facts.status), systemdCheck()] + relayChecks(diagnosis) + [overlayCheck()]
    }

    /// What on this machine stops mDNS, first cause of what Avahi doesn't see: a firewall that
    /// drops UDP 5353 (Avahi doesn't even hear itself then), multicast off.
    static func mdnsBlockedHere(firewallDropsMDNS: Bool, multicast: DoctorCheck) -> String? {
        var causes: [String] = []
        if firewallDropsMDNS { causes.append("this machine's firewall drops UDP 5353 (see firewall)") }
        if multicast.status == .fail { causes.append("\(multicast.summary) (see multicast)") }
        return causes.isEmpty ? nil : causes.joined(separator: ", and ")
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
