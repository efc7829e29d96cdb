import PeerdModel

/// Facts about the running daemon that `peerctl status` reports.
struct DaemonInfo: Sendable {
    static let version = "0.1.0"

    let identity: PeerID
    let name: String
    let port: Int
    let stateDir: String
    let socketPath: String
    let mdns: Bool
    let started = ContinuousClock.now

    var uptimeSeconds: Double {
        let elapsed = started.duration(to: .now).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }
}
