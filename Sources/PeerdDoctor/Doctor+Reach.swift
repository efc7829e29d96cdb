import PeerdModel
import PeerdWire

/// `peer-reach`: for each peer that is seen or known but not connected, how far dialing it got and
/// why it stopped there; and each peer admission refused when it dialed us.
extension Doctor {
    func peerReachChecks(_ facts: DaemonFacts, _ diagnosis: DiagnosisRecord) -> [DoctorCheck] {
        let connected = Set(diagnosis.sessions.map(\.peer))
            .union(facts.peers.filter { $0.state == .connected }.compactMap(\.peer))
        // Where connected peers listen: a target not yet matched to its peer may be one of them.
        let listening = Set(diagnosis.sessions.compactMap(\.listenAddress))
        var checks: [DoctorCheck] = []
        var reported = connected
        for record in facts.peers where ![.connected, .relayed].contains(record.state) && record.source != .inbound {
            if let peer = record.peer, !reported.insert(peer).inserted { continue }
            if record.peer == nil, record.addresses.contains(where: listening.contains) { continue }
            checks.append(reach(record, diagnosis, local: facts.status.peer))
        }
        for refusal in Self.standingRefusals(diagnosis, connected: connected) {
            if let peer = refusal.peer, !reported.insert(peer).inserted { continue }
            let name = facts.peers.first { $0.peer != nil && $0.peer == refusal.peer }?.name
            checks.append(refused(refusal, name: name))
        }
        checks += silentSessions(diagnosis)
        for service in diagnosis.discovery.services ?? [] where service.peer == nil {
            checks.append(
                .fail(
                    .peerReach,
                    "'\(service.name)' is announced on the LAN, but \(service.note ?? "its TXT is not peerd's")",
                    cause: "it runs a peerd this one can't talk to",
                    fix: "run the same peerd version on both machines (upgrade the older one)"
                )
            )
        }
        guard checks.isEmpty else { return checks }
        if connected.isEmpty { return [.skip(.peerReach, "no peer is seen or known yet, so none to reach")] }
        let count = connected.count
        return [
            .pass(.peerReach, count == 1 ? "the one peer seen is connected" : "all \(count) peers seen are connected")
        ]
    }

    /// Sessions nothing has come from for longer than a keepalive interval: about to drop.
    private func silentSessions(_ diagnosis: DiagnosisRecord) -> [DoctorCheck] {
        diagnosis.sessions.compactMap { session in
            guard let silence = session.silentMs else { return nil }
            return DoctorCheck(
                .peerReach,
                .fail,
                "\(Self.who(session.name, session.peer, nil)) is connected, but nothing has come from it for "
                    + Self.duration(ms: silence),
                cause: "its packets stopped arriving: the network between you changed (client isolation on the "
                    + "access point or bridge, a firewall, the link itself)",
                fix: "peerd drops a session silent for three keepalive intervals (30 s) and dials again; run "
                    + "doctor once more then to see how far that gets",
                peer: session.peer.rawValue,
                name: session.name
            )
        }
    }

    /// How dialing one peer that isn't connected went.
    private func reach(_ record: PeerRecord, _ diagnosis: DiagnosisRecord, local: PeerID) -> DoctorCheck {
        let who = Self.who(record.name, record.peer, record.address)
        if let removed = diagnosis.removed {
            return .fail(
                .peerReach,
                "\(who) refuses us: this peerd was removed from the group",
                cause: "this peerd was \(removed), so no member admits it and it dials nobody",
                fix: "ask a member to invite this machine again: start peerd with a fresh state directory (a new "
                    + "key), then peerctl join <code>; what it holds now stays here"
            )
            .about(record.peer?.rawValue, name: record.name)
        }
        if record.state == .untrusted {
            return .fail(
                .peerReach,
                "\(who) is announced on the LAN but not trusted here, so it isn't dialed",
                cause: "it isn't a member of this peerd's group: never paired, or another group secret",
                fix: Self.pairingFix
            )
            .about(record.peer?.rawValue, name: record.name)
        }
        guard let dial = Self.latestDial(diagnosis.dials, peer: record.peer, addresses: record.addresses) else {
            return .skip(.peerReach, "\(who) hasn't been dialed yet (\(record.state.rawValue))")
                .about(record.peer?.rawValue, name: record.name)
        }
        guard dial.outcome != .ok else {
            return .skip(.peerReach, "\(who) isn't connected now (\(dial.message)); peerd dials it again")
                .about(record.peer?.rawValue, name: record.name)
        }
        return dialFailure(dial, who: who, local: local).about((record.peer ?? dial.peer)?.rawValue, name: record.name)
    }

    /// A failed dial's check: what it says about the network or the other peer, and what to do.
    func dialFailure(_ dial: DialRecord, who: String, local: PeerID) -> DoctorCheck {
        let port = dial.port.map(String.init) ?? "its port"
        let at = who == dial.address ? who : "\(who) at \(dial.address)"
        switch dial.outcome {
        case .refused:
            return .fail(
                .peerReach,
                "can't reach \(at): connection refused",
                cause: "nothing listens on port \(port) there: peerd isn't running there, listens on another port, "
                    + "or a firewall there rejects",
                fix: "start peerd there (systemctl --user start peerd), check its port (peerctl status there), "
                    + "or allow TCP \(port) in its firewall"
            )
        case .timeout:
            return .fail(
                .peerReach,
                "can't reach \(at): timed out",
                cause: "no answer to our TCP connection: probably a firewall on its side drops port \(port) "
                    + "(or client isolation drops our packets)",
                fix: "on \(who), allow TCP \(port) in its firewall: " + Self.allowTCP(port)
            )
        case .unreachable:
            return .fail(
                .peerReach,
                "can't reach \(at): no route",
                cause: dial.message,
                fix: "turn off client (AP) isolation on the access point or bridge, or put both machines on one "
                    + "VLAN/subnet; across subnets use peerctl connect HOST:PORT with an address that routes"
            )
        case .tlsFailed:
            return .fail(
                .peerReach,
                "TLS with \(at) failed",
                cause: dial.message,
                fix: "check what listens on \(dial.address): it should be peerd, of a version that speaks this one's "
                    + "protocol"
            )
        case .notMember, .revoked, .keyMismatch: return admissionFailure(dial, who: who, local: local)
        case .removed: return removalFailure(dial, who: who)
        case .other, .ok:
            return .fail(
                .peerReach,
                "\(at) didn't connect",
                cause: dial.message,
                fix: "see peerd's log on both machines (journalctl --user -u peerd)"
            )
        }
    }

    /// Admission failed on a dial: the peer is named with the address it was dialed at, so the user
    /// knows which machine it is.
    private func admissionFailure(_ dial: DialRecord, who: String, local: PeerID) -> DoctorCheck {
        let theirs = dial.by == .peer
        let at = who == dial.address ? who : "\(who) at \(dial.address)"
        switch dial.outcome {
        case .notMember:
            return .fail(
                .peerReach,
                theirs ? "\(at) refuses us: not a member of its group" : "we refuse \(at): not a member of our group",
                cause: "the two never paired, or they hold different group secrets",
                fix: Self.pairingFix
            )
        case .revoked where theirs:
            return .fail(
                .peerReach,
                "\(at) refuses us: it revoked this peerd",
                cause: "revoked with peerctl forget on \(who)",
                fix: "if that wasn't intended, run on \(who): peerctl trust \(local)"
            )
        case .revoked:
            return .fail(
                .peerReach,
                "we refuse \(at): it was revoked here",
                cause: "revoked with peerctl forget here",
                fix: "if that wasn't intended: peerctl trust \(dial.peer?.rawValue ?? "ID")"
            )
        default:
            return .fail(
                .peerReach,
                "\(who) at \(dial.address) presented another key than expected",
                cause: "expected id \(dial.expected?.short ?? "?"), but it presented \(dial.peer?.short ?? "?"): "
                    + "another peerd at that address, or an impostor",
                fix: "check which peerd runs at \(dial.address) (peerctl id there); if it was reinstalled, "
                    + "pair again (peerctl invite / peerctl join)"
            )
        }
    }

    /// A dial refused because a key was removed from the group: ours (the peer says so, with who
    /// removed it and when) or the peer's.
    private func removalFailure(_ dial: DialRecord, who: String) -> DoctorCheck {
        let at = who == dial.address ? who : "\(who) at \(dial.address)"
        guard dial.by == .peer else {
            return .fail(
                .peerReach,
                "we refuse \(at): its key was removed from the group",
                cause: dial.message,
                fix: "nothing to do: a removed key never comes back; that machine can join again with a new key"
            )
        }
        return .fail(
            .peerReach,
            "\(at) refuses us: this peerd was removed from the group",
            cause: dial.message,
            fix: "ask a member to invite this machine again: start peerd with a fresh state directory (a new key), "
                + "then peerctl join <code>; what it holds now stays here"
        )
    }

    /// A peer that dialed us and was refused at admission.
    private func refused(_ refusal: RefusalRecord, name: String?) -> DoctorCheck {
        let who = Self.who(name, refusal.peer, DialRecord.host(of: refusal.address))
        let check: DoctorCheck
        switch refusal.code {
        case .notMember:
            check = .fail(
                .peerReach,
                "\(who) tried to connect from \(refusal.address) and was refused: not a member",
                cause: "it isn't a member of this group: never paired, or it holds another group secret",
                fix: Self.pairingFix
            )
        case .revoked:
            check = .fail(
                .peerReach,
                "\(who), revoked here, keeps connecting from \(refusal.address)",
                cause: "revoked with peerctl forget here",
                fix: "if that wasn't intended: peerctl trust \(refusal.peer?.rawValue ?? "ID")"
            )
        default:
            check = .fail(
                .peerReach,
                "\(who) from \(refusal.address) was refused at admission",
                cause: refusal.message,
                fix: "see peerd's log on both machines (journalctl --user -u peerd)"
            )
        }
        return check.about(refusal.peer?.rawValue, name: name)
    }

    static let pairingFix =
        "pair with peerctl invite / peerctl join: run peerctl invite on one machine and peerctl join CODE on the "
        + "other (or give both the same --group-secret-file)"

    static func allowTCP(_ port: String) -> String {
        "sudo nft insert rule inet filter input tcp dport \(port) accept (or sudo ufw allow \(port)/tcp)"
    }

    /// Each refused peer's latest refusal, unless it is connected now or its host has connected since
    /// (with another identity: the fault was mended).
    /// How long a refusal of a peer that dialed us stands: a peer still trying redials within 30 s
    /// (its backoff's cap), so an older refusal is of one that has stopped (or left the LAN).
    static let refusalStandsMs: Int64 = 90_000

    static func standingRefusals(_ diagnosis: DiagnosisRecord, connected: Set<PeerID>) -> [RefusalRecord] {
        var latest: [String: RefusalRecord] = [:]
        for refusal in diagnosis.refusals { latest[refusal.peer?.rawValue ?? refusal.address] = refusal }
        return latest.values.filter { refusal in
            if diagnosis.at - refusal.at > refusalStandsMs { return false }
            if let peer = refusal.peer, connected.contains(peer) { return false }
            let host = DialRecord.host(of: refusal.address)
            return !diagnosis.sessions.contains { DialRecord.host(of: $0.address) == host && $0.since > refusal.at }
        }
        .sorted { $0.at < $1.at }
    }

    /// The latest dial of `peer` (as presented or expected), or of one of its addresses.
    static func latestDial(_ dials: [DialRecord], peer: PeerID?, addresses: [String]) -> DialRecord? {
        dials.filter { dial in
            (peer != nil && (dial.peer == peer || dial.expected == peer)) || addresses.contains(dial.address)
        }
        .max { $0.at < $1.at }
    }

    /// `bob (b7e4c2a1)`, or what is known of it.
    static func who(_ name: String?, _ peer: PeerID?, _ address: String?) -> String {
        switch (name, peer) {
        case (let name?, let peer?): "\(name) (\(peer.short))"
        case (let name?, nil): name
        case (nil, let peer?): peer.short
        case (nil, nil): address ?? "a peer"
        }
    }
}
