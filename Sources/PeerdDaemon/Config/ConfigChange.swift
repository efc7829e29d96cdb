package import Logging
package import PeerdModel
import PeerdWire

/// What a reloaded config file changes in a running peerd.
package struct ConfigChange: Equatable, Sendable {
    /// The level to log at from now on: the file's, or info when it names none.
    package var logLevel: Logger.Level
    /// Peers to start dialing.
    package var addedPeers: [PeerAddress]
    /// Keys whose new values apply only at the next start (a removed peer is dialed until then too).
    package var needsRestart: [String]

    package init(from old: ConfigFile, to new: ConfigFile) {
        logLevel = new.logLevel ?? .info
        addedPeers = new.peers.filter { !old.peers.contains($0) }
        var later: [String] = []
        if old.name != new.name { later.append("name") }
        if old.port != new.port { later.append("port") }
        if old.listenAddress != new.listenAddress { later.append("listenAddress") }
        if old.stateDir != new.stateDir { later.append("stateDir") }
        if old.socket != new.socket { later.append("socket") }
        if old.mdns != new.mdns { later.append("mdns") }
        if old.peers.contains(where: { !new.peers.contains($0) }) { later.append("peers(removed)") }
        needsRestart = later
    }
}
