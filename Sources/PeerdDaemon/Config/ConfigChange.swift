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
    package static let appliedOnReload: Set<DaemonSettings.Key> = [.logLevel, .peers]

    /// The level to log at from now on: the file's, or info when it names none.
    package var logLevel: Logger.Level
    /// Peers to start dialing.
    package var addedPeers: [PeerAddress]
    /// Keys, as the file spells them, whose new values apply only at the next start (a removed peer
    /// is dialed until then too: `peers(removed)`).
    package var needsRestart: [String]

    package init(from old: DaemonSettings, to new: DaemonSettings) {
        logLevel = new.logLevel ?? .info
        addedPeers = new.peers.filter { !old.peers.contains($0) }
        needsRestart = DaemonSettings.Key.allCases
            .filter { !Self.appliedOnReload.contains($0) && old.differs(in: $0, from: new) }
            .map(\.rawValue)
        if old.peers.contains(where: { !new.peers.contains($0) }) { needsRestart.append("peers(removed)") }
    }
}
