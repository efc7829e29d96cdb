package import Logging
package import PeerdModel

/// What `peerd`'s command line said, as plain values: nil (or empty) for a flag not given, so the
/// config file and the defaults can fill it in (``DaemonConfiguration/init(flags:file:environment:hostName:)``).
///
/// The command parses and checks the flags; this holds only their values, so the daemon's settings
/// are resolved and tested without swift-argument-parser.
package struct DaemonFlags: Equatable, Sendable {
    package var name: String?
    package var port: Int?
    package var listenAddress: String?
    package var stateDir: String?
    package var socket: String?
    /// `--no-mdns` is `false`; nil when not given.
    package var mdns: Bool?
    /// `--peer`, in the order given.
    package var peers: [PeerAddress] = []
    package var groupSecretFile: String?
    package var tmdbTokenFile: String?
    package var tmdbURL: String?
    package var tmdbLanguage: String?
    /// `--no-tmdb`.
    package var noTmdb = false
    /// `--web-address`, repeatable; nil when not given.
    package var webAddresses: [String]?
    package var webPort: Int?
    /// `--no-web` is `false`; nil when not given.
    package var web: Bool?
    package var guestAddress: String?
    package var guestPort: Int?
    /// `--no-guests` is `false`; nil when not given.
    package var guests: Bool?
    package var logLevel: Logger.Level?
    /// `--config`.
    package var config: String?
    /// `--keepalive-interval` (hidden): nil keeps the session's default.
    package var keepaliveInterval: Duration?
    /// `--flood` (hidden): push every operation over every session, no relay tree.
    package var flood = false

    package init() {}
}
