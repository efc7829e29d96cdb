import Logging
import PeerdModel

@testable import PeerdDaemon

extension DaemonConfigurationTests {
    /// One setting of the config file, as each source says it, and what peerd resolves it to
    /// (in ``DaemonConfigurationTests/environment``, on a host called `ada-laptop`).
    struct Setting: Sendable {
        /// The file's value, as JSON.
        var json: String
        var flag: @Sendable (inout DaemonFlags) -> Void
        var byDefault: String
        var fromFile: String
        var fromFlag: String
        var read: @Sendable (DaemonConfiguration) -> String

        /// The switch names every key, so a new key needs its row here.
        static func of(_ key: DaemonSettings.Key) -> Setting {
            switch key {
            case .name:
                Setting(#""den""#, { $0.name = "attic" }, "ada-laptop", "den", "attic") { $0.name }
            case .port:
                Setting("7605", { $0.port = 7606 }, "7601", "7605", "7606") { "\($0.port)" }
            case .listenAddress:
                Setting(#""::1""#, { $0.listenAddress = "0.0.0.0" }, "::", "::1", "0.0.0.0") { $0.listenAddress }
            case .stateDir:
                Setting(#""/srv/f""#, { $0.stateDir = "/srv/g" }, "/home/ada/state/peerd", "/srv/f", "/srv/g") {
                    $0.stateDirectory
                }
            case .socket:
                Setting(
                    #""/f.sock""#,
                    { $0.socket = "/g.sock" },
                    "/run/user/1000/peerd/control.sock",
                    "/f.sock",
                    "/g.sock"
                ) {
                    $0.socketPath
                }
            case .mdns:
                Setting("false", { $0.mdns = true }, "true", "false", "true") { "\($0.mdns)" }
            case .peers:
                // The file's peers add to --peer's.
                Setting(
                    #"["10.0.0.2:7601"]"#,
                    { $0.peers = [PeerAddress(host: "10.0.0.3", port: 7601)] },
                    "",
                    "10.0.0.2:7601",
                    "10.0.0.3:7601,10.0.0.2:7601"
                ) {
                    $0.staticPeers.map(\.description).joined(separator: ",")
                }
            case .logLevel:
                Setting(#""debug""#, { $0.logLevel = .error }, "info", "debug", "error") { "\($0.logLevel)" }
            case .tmdbTokenFile:
                // None: TMDB_TOKEN, else the default token file (TMDBCredential.load).
                Setting(#""/f.token""#, { $0.tmdbTokenFile = "/g.token" }, "none", "/f.token", "/g.token") {
                    $0.tmdb.tokenFile ?? "none"
                }
            case .tmdbURL:
                Setting(
                    #""http://127.0.0.1:9""#,
                    { $0.tmdbURL = "https://tmdb.lan" },
                    "https://api.themoviedb.org",
                    "http://127.0.0.1:9",
                    "https://tmdb.lan"
                ) {
                    $0.tmdb.url
                }
            case .tmdbLanguage:
                Setting(#""fr-FR""#, { $0.tmdbLanguage = "de-DE" }, "en-US", "fr-FR", "de-DE") { $0.tmdb.language }
            case .web:
                Setting("false", { $0.web = true }, "true", "false", "true") { "\($0.web.enabled)" }
            case .webAddresses:
                Setting(#""::1""#, { $0.webAddresses = ["10.0.0.5", "::1"] }, "127.0.0.1,::1", "::1", "10.0.0.5,::1") {
                    $0.web.addresses.joined(separator: ",")
                }
            case .webPort:
                Setting("0", { $0.webPort = 7612 }, "7602", "0", "7612") { "\($0.web.port)" }
            case .guests:
                Setting("false", { $0.guests = true }, "true", "false", "true") { "\($0.guests.enabled)" }
            case .guestAddress:
                Setting(#""10.0.0.5""#, { $0.guestAddress = "192.168.1.20" }, "detected", "10.0.0.5", "192.168.1.20") {
                    $0.guests.address ?? "detected"
                }
            case .guestPort:
                Setting("0", { $0.guestPort = 7613 }, "7603", "0", "7613") { "\($0.guests.port)" }
            case .devices:
                Setting("false", { $0.devices = true }, "true", "false", "true") { "\($0.devices.enabled)" }
            case .deviceAddress:
                Setting(#""10.0.0.5""#, { $0.deviceAddress = "192.168.1.20" }, "detected", "10.0.0.5", "192.168.1.20") {
                    $0.devices.address ?? "detected"
                }
            case .devicePort:
                Setting("0", { $0.devicePort = 7614 }, "7604", "0", "7614") { "\($0.devices.port)" }
            case .newsInterval:
                Setting(#""6h""#, { $0.newsInterval = "10s" }, "86400", "21600", "10") {
                    "\($0.newsInterval.components.seconds)"
                }
            case .notifications:
                Setting("false", { $0.notifications = true }, "true", "false", "true") { "\($0.notifications)" }
            }
        }

        init(
            _ json: String,
            _ flag: @escaping @Sendable (inout DaemonFlags) -> Void,
            _ byDefault: String,
            _ fromFile: String,
            _ fromFlag: String,
            read: @escaping @Sendable (DaemonConfiguration) -> String
        ) {
            self.json = json
            self.flag = flag
            self.byDefault = byDefault
            self.fromFile = fromFile
            self.fromFlag = fromFlag
            self.read = read
        }
    }
}
