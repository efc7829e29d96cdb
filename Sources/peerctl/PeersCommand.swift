import ArgumentParser
import PeerdWire

struct PeersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peers",
        abstract: "Show the peers this daemon knows: how each was found, its state and traffic."
    )

    @OptionGroup var options: ControlOptions

    func run() throws {
        guard case .peers(let peers) = try options.request(.peers) else { throw Output.unexpected() }
        if options.json { return Output.json(peers) }
        guard !peers.isEmpty else {
            print("no peers yet; add one with `peerctl connect HOST:PORT` or start peerd with --peer")
            return
        }
        let now = Output.nowMillis()
        var table = Output.Table([
            "NAME", "PEER", "ADDRESS", "FOUND", "STATE", "CONNECTED SINCE", "LAST SEEN", "SENT", "RECEIVED",
        ])
        for peer in peers {
            var state = peer.state.rawValue
            if peer.state == .retrying, let retry = peer.retryIn { state += " in \(Output.duration(retry))" }
            table.add([
                peer.name ?? "-", peer.peer?.short ?? "-", peer.address, peer.source.rawValue, state,
                peer.connectedSince.map(Output.clockTime) ?? "-",
                peer.lastSeen.map { Output.duration(Double(now - $0) / 1000) + " ago" } ?? "-",
                String(peer.opsSent), String(peer.opsReceived),
            ])
        }
        table.print()
        for peer in peers where peer.state != .connected {
            if let error = peer.lastError { print("\(peer.address): \(error)") }
        }
    }
}
