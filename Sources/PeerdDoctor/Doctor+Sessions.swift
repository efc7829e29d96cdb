import PeerdModel
import PeerdWire

/// What the sessions tell: peers that reach us one way only, and clocks that disagree.
extension Doctor {
    /// A peer whose dial to us worked while ours to it failed at TCP: its firewall stops us. A
    /// timeout counts if it came at most this long before its session (both sides dial when they
    /// find each other); a refusal only once its peerd was up.
    static let oneWayWindowMs: Int64 = 60_000

    func inboundOnlyChecks(_ facts: DaemonFacts, _ diagnosis: DiagnosisRecord) -> [DoctorCheck] {
        let outbound = Set(diagnosis.sessions.filter { $0.direction == .outbound }.map(\.peer))
        // A session gone silent says nothing of one way: the peer's packets stopped too (peer-reach).
        let silent = Set(diagnosis.sessions.filter { $0.silentMs != nil }.map(\.peer))
        var checks: [DoctorCheck] = []
        for inbound in diagnosis.inbound where !outbound.contains(inbound.peer) && !silent.contains(inbound.peer) {
            let record = facts.peers.first { $0.peer == inbound.peer }
            let addresses = (record?.addresses ?? []) + [inbound.listenAddress].compactMap { $0 }
            guard
                let dial = Self.latestDial(diagnosis.dials, peer: inbound.peer, addresses: addresses),
                dial.outcome.isConnectFailure,
                dial.at >= inbound.at - (dial.outcome == .refused ? 0 : Self.oneWayWindowMs)
            else { continue }
            let who = Self.who(inbound.name ?? record?.name, inbound.peer, nil)
            let port = dial.port.map(String.init) ?? "its port"
            let cause =
                dial.outcome == .refused
                ? "their firewall rejects our connections to port \(port) (or peerd there listens on another address)"
                : "their firewall drops our connections to port \(port)"
            checks.append(
                DoctorCheck(
                    .inboundOnly,
                    .fail,
                    "\(who) reaches us, but we can't reach it at \(dial.address) (\(dial.outcome.rawValue))",
                    cause: cause,
                    fix: "on \(who), allow TCP \(port) in its firewall: " + Self.allowTCP(port),
                    peer: inbound.peer.rawValue,
                    name: inbound.name ?? record?.name
                )
            )
        }
        guard checks.isEmpty else { return checks }
        let summary =
            diagnosis.inbound.isEmpty
            ? "no peer reaches us one way only (none has dialed us lately)"
            : "every peer that dialed us is reachable from here too, as far as we dialed it"
        return [.pass(.inboundOnly, summary)]
    }

    func clockChecks(_ diagnosis: DiagnosisRecord) -> [DoctorCheck] {
        let measured = diagnosis.sessions.compactMap { session in session.skewMs.map { (session, $0) } }
        guard let largest = measured.map({ abs($0.1) }).max() else {
            let why =
                diagnosis.sessions.isEmpty
                ? "no connected peer to compare with"
                : "the connected peers don't send their clock (an older peerd)"
            return [.notChecked(.clock, why)]
        }
        let off = measured.filter { abs($0.1) > Self.skewLimitMs }
        guard !off.isEmpty else {
            let count = measured.count
            return [
                .pass(
                    .clock,
                    "clocks agree with \(count) connected peer\(count == 1 ? "" : "s") "
                        + "(largest difference \(Self.duration(ms: largest)))"
                )
            ]
        }
        return off.map { session, skew in
            let who = Self.who(session.name, session.peer, session.address)
            let way = skew > 0 ? "ahead of" : "behind"
            return DoctorCheck(
                .clock,
                .fail,
                "\(who)'s clock is \(Self.duration(ms: abs(skew))) \(way) this machine's",
                cause: "operation times and \"added 2 h ago\" go wrong when clocks disagree by more than a minute",
                fix: "sync clocks (timedatectl set-ntp true) on whichever machine is wrong",
                peer: session.peer.rawValue,
                name: session.name
            )
        }
    }

    /// `0.1 s`, `42 s`, `5 min 3 s`, `2 h 10 min`, `3 d 4 h`.
    static func duration(ms: Int64) -> String {
        if ms < 10_000 { return "\(Double(ms / 100) / 10) s" }
        let s = ms / 1000
        switch s {
        case ..<60: return "\(s) s"
        case ..<3600: return "\(s / 60) min \(s % 60) s"
        case ..<86400: return "\(s / 3600) h \(s % 3600 / 60) min"
        default: return "\(s / 86400) d \(s % 86400 / 3600) h"
        }
    }
}
