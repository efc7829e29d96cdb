package import Logging
package import PeerdModel

/// What a person sets for peerd, whether by a flag or by a key of the config file: one type for
/// both, so a setting is declared once, checked once (``problem(naming:)``, in the words of
/// wherever it came from), compared once for a reload (``differs(in:from:)``) and merged once
/// (``overriding(_:)``). Nil (or empty) is "not set here": another source or the default fills it in
/// (``DaemonConfiguration/init(flags:file:environment:hostName:)``).
package struct DaemonSettings: Equatable, Sendable {
    package var name: String?
    package var port: Int?
    package var listenAddress: String?
    package var stateDir: String?
    package var socket: String?
    /// `--no-mdns` is `false`.
    package var mdns: Bool?
    /// `--peer`, in the order given; the file's `peers` add to the flags'.
    package var peers: [PeerAddress] = []
    package var logLevel: Logger.Level?
    package var tmdbTokenFile: String?
    package var tmdbURL: String?
    package var tmdbLanguage: String?
    /// `--no-web` is `false`.
    package var web: Bool?
    /// `--web-address`, repeatable; the file's `webAddress`: one address, or a list of them.
    package var webAddresses: [String]?
    package var webPort: Int?
    /// `--no-guests` is `false`.
    package var guests: Bool?
    package var guestAddress: String?
    package var guestPort: Int?
    /// `--no-devices` is `false`.
    package var devices: Bool?
    package var deviceAddress: String?
    package var devicePort: Int?
    /// `--news-interval`: how often a token holder checks each wanted movie for news ("10s", "6h", "1d").
    package var newsInterval: String?
    /// `--no-notifications` is `false`.
    package var notifications: Bool?

    package init() {}

    /// Every setting, by the config file's spelling of it.
    package enum Key: String, CodingKey, CaseIterable, Sendable {
        case name, port, listenAddress, stateDir, socket, mdns, peers, logLevel, tmdbTokenFile
        case tmdbURL = "tmdbUrl"
        case tmdbLanguage, web
        case webAddresses = "webAddress"
        case webPort, guests, guestAddress, guestPort, devices, deviceAddress, devicePort, newsInterval
        case notifications

        /// The flag that sets it, as `peerd --help` spells it.
        package var flag: String {
            switch self {
            case .mdns, .web, .guests, .devices, .notifications: "--no-\(rawValue)"
            case .peers: "--peer"
            default: "--" + rawValue.reduce(into: "") { $0 += $1.isUppercase ? "-\($1.lowercased())" : "\($1)" }
            }
        }
    }

    /// The first value out of its bounds, in words that name its key as `name` spells it (a flag,
    /// or the file's key); nil when every value is fine.
    package func problem(naming name: (Key) -> String) -> String? {
        if let named = self.name, named.isEmpty || named.count > 64 {
            return "\(name(.name)) must be 1 to 64 characters"
        }
        for (key, value) in [(Key.port, port), (.webPort, webPort), (.guestPort, guestPort), (.devicePort, devicePort)]
        {
            if let value, !(0...65535).contains(value) { return "\(name(key)) must be between 0 and 65535" }
        }
        if let webAddresses, webAddresses.isEmpty || webAddresses.contains(where: \.isEmpty) {
            return "\(name(.webAddresses)) must name at least one address, none empty"
        }
        if guestAddress?.isEmpty == true { return "\(name(.guestAddress)) must not be empty" }
        if deviceAddress?.isEmpty == true { return "\(name(.deviceAddress)) must not be empty" }
        if let newsInterval, NewsInterval(newsInterval) == nil {
            return "\(name(.newsInterval)) '\(newsInterval)' is not a time like 10s, 30m, 6h or 1d (at least 1s)"
        }
        return nil
    }

    /// These settings over `other`'s: each value set here wins, and `peers` add up.
    package func overriding(_ other: DaemonSettings) -> DaemonSettings {
        var merged = DaemonSettings()
        for key in Key.allCases { merged.take(key, from: differs(in: key, from: DaemonSettings()) ? self : other) }
        merged.peers = peers + other.peers
        return merged
    }
}

extension DaemonSettings {
    /// Whether the two hold different values for `key`.
    package func differs(in key: Key, from other: DaemonSettings) -> Bool { Self.field(key).differs(self, other) }

    /// Takes `source`'s value of `key`.
    private mutating func take(_ key: Key, from source: DaemonSettings) {
        Self.field(key).copy(from: source, into: &self)
    }

    /// Where each key's value is. The switch names every key, so the compiler asks for a new one here.
    private static func field(_ key: Key) -> any Field {
        switch key {
        case .name: Value(\.name)
        case .port: Value(\.port)
        case .listenAddress: Value(\.listenAddress)
        case .stateDir: Value(\.stateDir)
        case .socket: Value(\.socket)
        case .mdns: Value(\.mdns)
        case .peers: Value(\.peers)
        case .logLevel: Value(\.logLevel)
        case .tmdbTokenFile: Value(\.tmdbTokenFile)
        case .tmdbURL: Value(\.tmdbURL)
        case .tmdbLanguage: Value(\.tmdbLanguage)
        case .web: Value(\.web)
        case .webAddresses: Value(\.webAddresses)
        case .webPort: Value(\.webPort)
        case .guests: Value(\.guests)
        case .guestAddress: Value(\.guestAddress)
        case .guestPort: Value(\.guestPort)
        case .devices: Value(\.devices)
        case .deviceAddress: Value(\.deviceAddress)
        case .devicePort: Value(\.devicePort)
        case .newsInterval: Value(\.newsInterval)
        case .notifications: Value(\.notifications)
        }
    }

    private protocol Field {
        func differs(_ one: DaemonSettings, _ other: DaemonSettings) -> Bool
        func copy(from source: DaemonSettings, into settings: inout DaemonSettings)
    }

    /// One setting's value, by its key path.
    private struct Value<Setting: Equatable>: Field {
        let path: WritableKeyPath<DaemonSettings, Setting>

        init(_ path: WritableKeyPath<DaemonSettings, Setting>) { self.path = path }

        func differs(_ one: DaemonSettings, _ other: DaemonSettings) -> Bool {
            one[keyPath: path] != other[keyPath: path]
        }

        func copy(from source: DaemonSettings, into settings: inout DaemonSettings) {
            settings[keyPath: path] = source[keyPath: path]
        }
    }
}
