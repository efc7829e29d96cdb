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
    public var session = PeerSession<ContinuousClock.Instant>.Configuration()
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
