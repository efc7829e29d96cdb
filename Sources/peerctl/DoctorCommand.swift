import ArgumentParser
import PeerControl
import PeerdDoctor
import PeerdWire

struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "When peers don't find each other: check each thing they need, and say the cause and the fix.",
        discussion: """
            Prints one line per check: ✓ when it passed, ✗ with the cause and the fix \
            when it failed, – when it could not run (and why). Exits 0 when no check \
            failed, else 1; a check that could not run is no failure.

            The checks:
              daemon        peerd answers on its control socket.
              avahi         peerd's Avahi client reaches avahi-daemon over D-Bus.
              registered    our _watchlist._tcp service is announced, and our own
                            browse sees it.
              mdns-names    our <host>.local resolves through Avahi; whether the
                            system resolver has nss-mdns too.
              peers-seen    other peers' services are seen over mDNS. What stops
                            that: a firewall on UDP 5353, client isolation on the
                            access point, VLANs, avahi-daemon stopped elsewhere.
              peer-reach    each peer seen or known but not connected: how far
                            dialing it got (TCP refused or timed out, no route,
                            TLS, admission: not a member, revoked, another key);
                            and peers that dialed us and were refused.
              inbound-only  peers that reach us although we can't reach them.
              multicast     the interfaces mDNS runs on have multicast on.
              firewall      no local nftables or iptables rule drops UDP 5353 or
                            peerd's TCP port (reading the rules needs root).
              clock         connected peers' clocks agree within a minute.
              permissions   the state directory is 0700, the control socket 0600.
              systemd       the peerd user unit, when installed (wherever systemd
                            looks: ~/.config/systemd/user, /usr/lib/systemd/user,
                            …), hasn't failed; when peerd isn't running, what
                            systemd lacks to start it: a user manager (one runs
                            with a login session), the unit enabled.

            Examples:
              peerctl doctor
              peerctl doctor --json
              sudo peerctl doctor --socket /run/user/1000/peerd/control.sock
                            (as root, the firewall rules are read too)
            """
    )

    @OptionGroup var options: ControlOptions

    func run() throws {
        var daemon = Self.ask(options.socketPath)
        if case .success(var facts) = daemon {
            facts.add(probes: TCPProbe.run(facts.probeAddresses))
            daemon = .success(facts)
        }
        let status = try? daemon.get().status
        let doctor = Doctor(daemon: daemon, socket: options.socketPath, local: HostFacts.read(status: status))
        let report = DoctorReport(checks: doctor.checks())
        if options.json {
            Output.json(report)
        } else {
            for check in report.checks { print(Self.lines(check)) }
        }
        if !report.ok { throw ExitCode(1) }
    }

    /// `status`, `peers` and `diagnose` on one connection; `diagnose` is nil from an older peerd.
    static func ask(_ socket: String) -> Result<Doctor.DaemonFacts, DaemonUnreachable> {
        do {
            let client = try ControlClient(socketPath: socket)
            guard case .status(let status) = try client.request(StatusRequest()),
                case .peers(let peers) = try client.request(PeersRequest())
            else { return .failure(DaemonUnreachable("peerd answered with something unexpected")) }
            var diagnosis: DiagnosisRecord?
            if case .diagnosis(let answer) = try client.request(DiagnoseRequest()) { diagnosis = answer }
            return .success(Doctor.DaemonFacts(status: status, peers: peers, diagnosis: diagnosis))
        } catch {
            return .failure(DaemonUnreachable(error.description))
        }
    }

    /// `✓ summary`, or `✗ summary` with its indented cause and fix, or `– summary`.
    static func lines(_ check: DoctorCheck) -> String {
        switch check.status {
        case .pass: return "✓ " + check.summary
        case .skip: return "– " + check.summary
        case .fail:
            var text = "✗ " + check.summary
            if let cause = check.cause { text += "\n    cause: " + cause }
            if let fix = check.fix { text += "\n    fix: " + fix }
            return text
        }
    }
}
