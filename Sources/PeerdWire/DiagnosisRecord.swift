package import PeerdModel

/// The `diagnosis` response (proto/CONTROL.md, "diagnose"): what `peerctl doctor` needs and only
/// the daemon knows. Its fields sit at the top level, next to `type`.
package struct DiagnosisRecord: Hashable, Sendable, Codable {
    /// The daemon's clock when it answered (ms since 1970).
    package var at: Int64
    package var peer: PeerID
    package var name: String
    /// The TCP port peers dial.
    package var port: Int
    /// The address the listener binds (`::` for all).
    package var listenAddress: String
    package var stateDir: String
    package var socket: String
    package var discovery: DiscoveryRecord
    /// The latest dial results, oldest first.
    package var dials: [DialRecord]
    /// Inbound connections admission refused, oldest first.
    package var refusals: [RefusalRecord]
    /// The latest inbound session of each peer that dialed us.
    package var inbound: [InboundRecord]
    /// Every established session now.
    package var sessions: [SessionRecord]
    /// Set once this daemon's key was removed from the group: "removed from the group by alice at 21:04".
    package var removed: String?
    /// The group's relays and this daemon's membership of each; absent from a daemon older than relays.
    package var relays: [RelayRecord]?

    package init(
        at: Int64,
        peer: PeerID,
        name: String,
        port: Int,
        listenAddress: String,
        stateDir: String,
        socket: String,
        discovery: DiscoveryRecord,
        dials: [DialRecord] = [],
        refusals: [RefusalRecord] = [],
        inbound: [InboundRecord] = [],
        sessions: [SessionRecord] = [],
        removed: String? = nil,
        relays: [RelayRecord]? = nil
    ) {
        self.at = at
        self.peer = peer
        self.name = name
        self.port = port
        self.listenAddress = listenAddress
        self.stateDir = stateDir
        self.socket = socket
        self.discovery = discovery
        self.dials = dials
        self.refusals = refusals
        self.inbound = inbound
        self.sessions = sessions
        self.removed = removed
        self.relays = relays
    }
}

/// How mDNS discovery stands: the Avahi client, our announcement, our host name, what is seen.
package struct DiscoveryRecord: Hashable, Sendable, Codable {
    /// The state of the daemon's Avahi client.
    package enum AvahiState: String, Hashable, Sendable, Codable {
        /// Connected to avahi-daemon over D-Bus.
        case running
        /// avahi-daemon (or D-Bus) is not there; the client waits for it.
        case connecting
        /// The client could not be made at all.
        case failed
        /// No word from Avahi yet.
        case starting
        /// Discovery is off (`--no-mdns`).
        case off
    }

    /// One other peer's service, as Avahi resolves it now.
    package struct Service: Hashable, Sendable, Codable {
        package var name: String
        /// The id in its TXT; nil when the TXT is not one this version can use (`note` says why).
        package var peer: PeerID?
        package var note: String?
        /// `host:port`, best first.
        package var addresses: [String]
        /// When it last resolved.
        package var at: Int64

        package init(name: String, peer: PeerID?, note: String? = nil, addresses: [String], at: Int64) {
            self.name = name
            self.peer = peer
            self.note = note
            self.addresses = addresses
            self.at = at
        }
    }

    package var mdns: Bool
    package var avahi: AvahiState
    package var avahiError: String?
    /// Avahi's host name, e.g. `alice-laptop.local`.
    package var hostName: String?
    /// The name our service is announced under.
    package var service: String?
    package var registered: Bool?
    package var registerError: String?
    /// Why browsing failed, if it did.
    package var browseError: String?
    /// Our own browse resolved our own service.
    package var selfSeen: Bool?
    /// Whether `hostName` resolved through Avahi; nil until tried.
    package var hostResolved: Bool?
    package var hostAddress: String?
    package var hostError: String?
    package var services: [Service]?

    package init(
        mdns: Bool,
        avahi: AvahiState,
        avahiError: String? = nil,
        hostName: String? = nil,
        service: String? = nil,
        registered: Bool? = nil,
        registerError: String? = nil,
        browseError: String? = nil,
        selfSeen: Bool? = nil,
        hostResolved: Bool? = nil,
        hostAddress: String? = nil,
        hostError: String? = nil,
        services: [Service]? = nil
    ) {
        self.mdns = mdns
        self.avahi = avahi
        self.avahiError = avahiError
        self.hostName = hostName
        self.service = service
        self.registered = registered
        self.registerError = registerError
        self.browseError = browseError
        self.selfSeen = selfSeen
        self.hostResolved = hostResolved
        self.hostAddress = hostAddress
        self.hostError = hostError
        self.services = services
    }

    /// Discovery turned off.
    package static let off = DiscoveryRecord(mdns: false, avahi: .off)
}
