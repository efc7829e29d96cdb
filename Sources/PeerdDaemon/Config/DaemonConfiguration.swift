package import Crypto
package import Logging
package import PeerdModel
package import PeerdSync
import PeerdWire

/// Everything `peerd` is started with, once flags, the config file, the environment and defaults
/// are resolved (``init(flags:file:environment:hostName:)``) and the secrets read
/// (``load(_:environment:levels:)``).
package struct DaemonConfiguration: Sendable {
    package var name: String
    package var port: Int
    package var listenAddress: String
    package var stateDirectory: String
    package var socketPath: String
    /// True when the socket is the default one, whose directory peerd creates private (0700).
    package var socketIsDefault: Bool
    package var mdns: Bool
    package var staticPeers: [PeerAddress]
    /// `--group-secret-file`, read into ``groupKey`` at start.
    package var groupSecretFile: String?
    /// From `--group-secret-file`: peers proving the same secret are trusted.
    package var groupKey: SymmetricKey?
    /// The group secret's fingerprint, as the group's log records it (proto/SECURITY.md, "Group secret").
    package var groupFingerprint: String?
    package var session = PeerSession<ContinuousClock.Instant>.Configuration()
    /// The config file SIGHUP re-reads (`--config`, or the default path even before it exists).
    package var configPath: String?
    /// What that file said at start, so a reload applies only what changed.
    package var config: DaemonSettings
    /// The level to log at from the start.
    package var logLevel: Logger.Level
    /// Where a reloaded `logLevel` goes; nil when `--log-level` was given, which the file never overrides.
    package var logLevels: LogLevelOverride?
    /// The environment `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `TMDB_TOKEN` are read from.
    package var environment: [String: String]
    /// Where details of movies come from, when this daemon holds a TMDB token.
    package var tmdb = TMDBOptions()
    /// Where the page listens, if anywhere.
    package var web = WebOptions()
    package var guests = GuestOptions()
    package var devices = DeviceOptions()
    /// How often a token holder checks each wanted movie for news (`--news-interval`): a day by default.
    package var newsInterval: Duration = NewsInterval.standard
    /// Whether news of a wanted movie shows on this machine's desktop (`--no-notifications` says no).
    package var notifications = true
}
