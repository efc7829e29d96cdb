import PeerdWire

/// What peerctl read on this machine: its firewall, its interfaces, its files, its systemd unit.
package enum FirewallReading: Sendable {
    /// The rules read, one set per tool that could be read.
    case rules([FirewallRuleset])
    /// Why none could be read.
    case unreadable(String)
}

extension Doctor {
    func multicastCheck() -> DoctorCheck {
        let lan = local.interfaces.filter(\.carriesMDNS)
        guard !lan.isEmpty else {
            return .skip(.multicast, "no interface is up with an address (other than loopback and VPNs)")
        }
        let off = lan.filter { !$0.isMulticast }
        guard off.isEmpty else {
            let names = off.map(\.name).joined(separator: ", ")
            return .fail(
                .multicast,
                "multicast is off on \(names)",
                cause: "mDNS is multicast: without the MULTICAST flag Avahi neither hears nor announces on "
                    + (off.count == 1 ? "that interface" : "those interfaces"),
                fix: off.map { "sudo ip link set dev \($0.name) multicast on" }.joined(separator: "; ")
            )
        }
        return .pass(.multicast, "multicast is on where mDNS runs: \(lan.map(\.name).joined(separator: ", "))")
    }

    /// The firewall check, and whether it found UDP 5353 dropped (`peers-seen` names that first).
    func firewallCheck() -> (check: DoctorCheck, dropsMDNS: Bool) {
        let rulesets: [FirewallRuleset]
        switch local.firewall {
        case .unreadable(let why): return (.skip(.firewall, "couldn't read the firewall rules: \(why)"), false)
        case .rules(let read): rulesets = read
        }
        let probes = [("udp", 5353), ("tcp", port)].flatMap { proto, port in
            [false, true].map { FirewallRuleset.Probe(proto: proto, port: port, ipv6: $0) }
        }
        var drops: [(probe: FirewallRuleset.Probe, drop: FirewallRuleset.Drop)] = []
        for probe in probes where !drops.contains(where: { $0.probe.port == probe.port }) {
            if let drop = rulesets.lazy.compactMap({ $0.drop(probe) }).first { drops.append((probe, drop)) }
        }
        let tools = rulesets.map(\.tool.rawValue).joined(separator: " and ")
        guard !drops.isEmpty else {
            return (.pass(.firewall, "no \(tools) rule drops UDP 5353 (mDNS) or TCP \(port) (peerd) coming in"), false)
        }
        let what = drops.map { "\($0.probe.proto.uppercased()) \($0.probe.port)" }.joined(separator: " and ")
        let ufw = drops.map { "sudo ufw allow \($0.probe.port)/\($0.probe.proto)" }.joined(separator: "; ")
        let check = DoctorCheck.fail(
            .firewall,
            "this machine's firewall drops \(what) coming in",
            cause: drops.map { "\($0.drop.description) drops \($0.probe.proto.uppercased()) \($0.probe.port)" }
                .joined(separator: "; "),
            fix: "allow \(what) in your firewall: "
                + drops.map { $0.drop.allowCommand($0.probe) }.joined(separator: "; ")
                + " (or with ufw: \(ufw)); to keep it after a reboot, add it to /etc/nftables.conf"
        )
        return (check, drops.contains { $0.probe.port == 5353 })
    }

    /// Whether the unit is installed, and when peerd isn't running, what is missing for systemd to
    /// start it: a user manager, the unit enabled, started.
    func systemdCheck() -> DoctorCheck {
        let running = (try? daemon.get()) != nil
        switch local.systemd {
        case .notInstalled:
            return .skip(.systemd, "no peerd user unit is installed (peerd.service): peerd runs some other way")
        case .noManager(let why, let path):
            let installed = Self.installed(path) + ", but no systemd user manager answers (\(why))"
            guard !running else { return .skip(.systemd, installed + ": peerd runs some other way") }
            return .fail(
                .systemd,
                installed + ", so nothing starts it",
                cause: "systemd starts a user unit from the user's own manager (systemd --user), and none runs "
                    + "for this user: it starts with a login session",
                fix: "log in on a console or desktop session, or keep a manager running without one: "
                    + "sudo loginctl enable-linger $USER; then: systemctl --user enable --now peerd"
            )
        case .state(let active, let sub, let result, let enabled, let path):
            return unitCheck(active: active, sub: sub, result: result, enabled: enabled, path: path, running: running)
        }
    }

    private func unitCheck(
        active: String,
        sub: String,
        result: String,
        enabled: String,
        path: String?,
        running: Bool
    ) -> DoctorCheck {
        let installed = Self.installed(path)
        let failed =
            active == "failed" || sub == "auto-restart" || (active == "inactive" && !["success", ""].contains(result))
        if failed {
            return .fail(
                .systemd,
                "peerd.service has failed: \(active) (\(sub)), result \(result)",
                cause: "peerd stopped with result '\(result)' under systemd",
                fix: "see why: journalctl --user -u peerd -e; then: systemctl --user restart peerd"
            )
        }
        let isEnabled = ["enabled", "enabled-runtime", "linked", "linked-runtime"].contains(enabled)
        let enabling = isEnabled ? "enabled" : "not enabled (\(enabled.isEmpty ? "unknown" : enabled))"
        if ["active", "activating", "reloading"].contains(active) {
            let login = isEnabled ? "" : ": it won't start at the next login; systemctl --user enable peerd"
            return .pass(.systemd, "\(installed): \(active) (\(sub)), \(enabling)\(login)")
        }
        guard !running else {
            return .pass(.systemd, "\(installed): \(active), \(enabling); peerd runs some other way")
        }
        return .fail(
            .systemd,
            "\(installed), but \(isEnabled ? "not started" : "not enabled"): \(active) (\(sub))",
            cause: isEnabled
                ? "the unit starts at login, and was stopped since"
                : "a unit that isn't enabled starts only when asked",
            fix: isEnabled
                ? "systemctl --user start peerd" : "systemctl --user enable --now peerd (it then starts at every login)"
        )
    }

    /// "peerd.service is installed (/usr/lib/systemd/user/peerd.service)".
    private static func installed(_ path: String?) -> String {
        "peerd.service is installed" + (path.map { " (\($0))" } ?? "")
    }
}
