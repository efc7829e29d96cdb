package import Logging
package import PeerdModel
import PeerdWire

/// What a reloaded config file changes in a running peerd.
///
/// Every key of ``ConfigFile/Key`` is either applied at once (``appliedOnReload``) or, when its
/// value changed, named in ``needsRestart``: the list is derived from the keys, so a new key can't
/// be forgotten and silently ignored.
package struct ConfigChange: Equatable, Sendable {
    /// The keys a reload applies while peerd runs: the log level, and peers to start dialing.
    package static let appliedOnReload: Set<ConfigFile.Key> = [.logLevel, .peers]

    /// The level to log at from now on: the file's, or info when it names none.
    package var logLevel: Logger.Level
    /// Peers to start dialing.
    package var addedPeers: [PeerAddress]
    /// Keys, as the file spells them, whose new values apply only at the next start (a removed peer
    /// is dialed until then too: `peers(removed)`).
    package var needsRestart: [String]

    package init(from old: ConfigFile, to new: ConfigFile) {
        logLevel = new.logLevel ?? .info
        addedPeers = new.peers.filter { !old.peers.contains($0) }
        needsRestart = ConfigFile.Key.allCases
            .filter { !Self.appliedOnReload.contains($0) && old.differs(in: $0, from: new) }
            .map(\.rawValue)
        if old.peers.contains(where: { !new.peers.contains($0) }) { needsRestart.append("peers(removed)") }
    }
}

extension ConfigFile {
    /// Whether the two files hold different values for `key`. The switch names every key, so the
    /// compiler asks for a new one here too.
    func differs(in key: Key, from other: ConfigFile) -> Bool {
        switch key {
        case .name: name != other.name
        case .port: port != other.port
        case .listenAddress: listenAddress != other.listenAddress
        case .stateDir: stateDir != other.stateDir
        case .socket: socket != other.socket
        case .mdns: mdns != other.mdns
        case .peers: peers != other.peers
        case .logLevel: logLevel != other.logLevel
        case .tmdbTokenFile: tmdbTokenFile != other.tmdbTokenFile
        case .tmdbURL: tmdbURL != other.tmdbURL
        case .tmdbLanguage: tmdbLanguage != other.tmdbLanguage
        case .web: web != other.web
        case .webAddresses: webAddresses != other.webAddresses
        case .webPort: webPort != other.webPort
        case .guests: guests != other.guests
        case .guestAddress: guestAddress != other.guestAddress
        case .guestPort: guestPort != other.guestPort
        }
    }
}
