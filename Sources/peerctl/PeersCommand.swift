import ArgumentParser
import PeerdModel
import PeerdWire

struct PeersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peers",
        abstract: "Show the peers this daemon knows: how each was found, its state and traffic."
    )

    @OptionGroup var options: ControlOptions

    func run() throws {
        guard case .peers(let peers) = try options.request(PeersRequest()) else { throw Output.unexpected() }
        if options.json { return Output.json(peers) }
        guard !peers.isEmpty else {
            print("no peers yet; peers on the LAN are found by mDNS, others with `peerctl connect HOST:PORT`")
            return
        }
        let now = Output.nowMillis()
        var table = Output.Table([
            "NAME", "PEER", "TRUST", "FOUND", "STATE", "PATH", "ADDRESSES", "CONNECTED SINCE", "LAST SEEN", "SENT",
            "RECEIVED",
        ])
        for peer in peers {
            var state = peer.state == .relayed ? "via peers" : peer.state.rawValue
            if peer.state == .retrying, let retry = peer.retryIn { state += " in \(Output.duration(retry))" }
            table.add([
                peer.name ?? "-", peer.peer?.short ?? "-", peer.trust?.rawValue ?? "-", peer.source.rawValue, state,
                Self.path(of: peer),
                peer.addresses.isEmpty ? "-" : peer.addresses.joined(separator: " "),
                peer.connectedSince.map(Output.clockTime) ?? "-",
                peer.lastSeen.map { Output.duration(Double(now - $0) / 1000) + " ago" } ?? "-",
                String(peer.opsSent), String(peer.opsReceived),
            ])
        }
        table.print()
        for peer in peers where peer.state != .connected {
            if let error = peer.lastError { print("\(peer.address ?? peer.name ?? "?"): \(error)") }
        }
        if peers.contains(where: { $0.path == .relay }) {
            print(
                "\"via\" sessions ride on one of the group's relays (peerctl relay); peerd's TLS runs end to end inside"
            )
        }
        if peers.contains(where: { $0.trust == .untrusted }) {
            print("untrusted peers are never synced with; pair with `peerctl invite` here and `peerctl join` there")
        }
    }

    /// `direct`, `via 203.0.113.7:22067` (a relay), or `-` while not connected.
    static func path(of peer: PeerRecord) -> String {
        switch peer.path {
        case .direct?: "direct"
        case .relay?: "via \(peer.via ?? "a relay")"
        case nil: "-"
        }
    }
}
