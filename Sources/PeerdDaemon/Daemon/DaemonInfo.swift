import PeerdCatalog
import PeerdModel
import PeerdWeb
import PeerdWire

/// Facts about the running daemon that `peerctl status` reports.
struct DaemonInfo: Sendable {
    let identity: PeerID
    let name: String
    let port: Int
    /// The address the peer listener binds.
    let listenAddress: String
    let stateDir: String
    let socketPath: String
    let mdns: Bool
    /// Whether this daemon holds a TMDB token.
    let tmdb: Bool
    /// The page, unless it is turned off (`--no-web`).
    let page: WebPage?
    /// The language TMDB is asked in (`--tmdb-language`): its region is where-to-watch's until the
    /// group sets one.
    var tmdbLanguage = CatalogSettings.defaultLanguage
    let started = ContinuousClock.now

    var uptimeSeconds: Double {
        let elapsed = started.duration(to: .now).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }
}
