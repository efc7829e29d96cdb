import Crypto
import PeerdSync
import PeerdWire

/// Everything `peerd` is started with, after flags and defaults are resolved.
public struct DaemonConfiguration: Sendable {
    public var name: String
    public var port: Int
    public var listenAddress: String
    public var stateDirectory: String
    public var socketPath: String
    /// True when the socket is the default one, whose directory peerd creates private (0700).
    public var socketIsDefault: Bool
    public var mdns: Bool
    public var staticPeers: [PeerAddress]
    /// From `--group-secret-file`: peers proving the same secret are trusted.
    public var groupKey: SymmetricKey?
    public var session = PeerSession<ContinuousClock.Instant>.Configuration()
    /// The config file SIGHUP re-reads (`--config`, or the default path even before it exists).
    public var configPath: String?
    /// What that file said at start, so a reload applies only what changed.
    public var config = ConfigFile()
    /// Where a reloaded `logLevel` goes; nil when `--log-level` was given, which the file never overrides.
    public var logLevels: LogLevelOverride?
    /// The environment `NOTIFY_SOCKET` and `WATCHDOG_USEC` are read from.
    public var environment: [String: String] = [:]

    public init(
        name: String,
        port: Int,
        listenAddress: String,
        stateDirectory: String,
        socketPath: String,
        socketIsDefault: Bool,
        mdns: Bool,
        staticPeers: [PeerAddress]
    ) {
        self.name = name
        self.port = port
        self.listenAddress = listenAddress
        self.stateDirectory = stateDirectory
        self.socketPath = socketPath
        self.socketIsDefault = socketIsDefault
        self.mdns = mdns
        self.staticPeers = staticPeers
    }
}
