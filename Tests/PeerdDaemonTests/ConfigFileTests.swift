import Foundation
import Logging
import PeerdModel
import PeerdTestKit
import PeerdWire
import Testing

@testable import PeerdDaemon

@Suite("The config file")
struct ConfigFileTests {
    func parse(_ text: String) throws(ConfigFileError.Problem) -> DaemonSettings {
        try ConfigFile.parse(Data(text.utf8))
    }

    func problem(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func everyKeyMirrorsAFlag() throws {
        let config = try parse(
            """
            {"name": "den", "port": 7602, "listenAddress": "127.0.0.1", "stateDir": "/srv/peerd",
             "socket": "/run/p.sock", "mdns": false, "peers": ["10.0.0.2:7601", "[fe80::1%eth0]:7601"],
             "logLevel": "debug"}
            """
        )
        #expect(config.name == "den")
        #expect(config.port == 7602)
        #expect(config.listenAddress == "127.0.0.1")
        #expect(config.stateDir == "/srv/peerd")
        #expect(config.socket == "/run/p.sock")
        #expect(config.mdns == false)
        #expect(
            config.peers == [PeerAddress(host: "10.0.0.2", port: 7601), PeerAddress(host: "fe80::1%eth0", port: 7601)]
        )
        #expect(config.logLevel == .debug)
    }

    @Test func thePageHasItsKeys() throws {
        let config = try parse(#"{"web": false, "webAddress": ["127.0.0.1", "192.168.1.5"], "webPort": 0}"#)
        #expect(config.web == false)
        #expect(config.webAddresses == ["127.0.0.1", "192.168.1.5"])
        #expect(config.webPort == 0)
        #expect(try parse(#"{"webAddress": "::1"}"#).webAddresses == ["::1"])
        #expect(problem(#"{"webPort": 70000}"#) == "webPort must be between 0 and 65535")
        #expect(problem(#"{"webAddress": []}"#)?.hasPrefix("webAddress must name") == true)
        #expect(problem(#"{"webAddress": 7}"#) != nil)
        #expect(problem(#"{"web": "yes"}"#) == "web must be true or false")
    }

    @Test func anEmptyObjectSetsNothing() throws {
        #expect(try parse("{}") == DaemonSettings())
    }

    @Test func mistakesAreNamedWithWhatToWrite() {
        #expect(problem(#"{"prot": 7601}"#)?.hasPrefix("unknown key 'prot'; the keys are name, port,") == true)
        #expect(problem(#"{"port": "7601"}"#) == "port must be a whole number")
        #expect(problem(#"{"port": 70000}"#) == "port must be between 0 and 65535")
        #expect(problem(#"{"mdns": "no"}"#) == "mdns must be true or false")
        #expect(problem(#"{"peers": "10.0.0.2"}"#) == "peers must be a list of strings")
        #expect(
            problem(#"{"peers": ["10.0.0.2:port"]}"#)
                == "peer '10.0.0.2:port' is not host:port (e.g. 192.168.1.20:7601)"
        )
        #expect(
            problem(#"{"logLevel": "loud"}"#)
                == "logLevel 'loud' is not one of trace, debug, info, notice, warning, error, critical"
        )
        #expect(problem(#"{"name": ""}"#) == "name must be 1 to 64 characters")
        #expect(problem(#"["port", 7601]"#) == "the file must hold one JSON object")
        #expect(problem(#"{"port": 7601"#)?.hasPrefix("not valid JSON") == true)
    }

    @Test func aMissingFileIsNoConfigAndABrokenOneNamesItsPath() throws {
        let directory = try ScratchDirectory("config")
        defer { directory.remove() }
        let path = directory.path("config.json")
        #expect(try ConfigFile.load(path: path) == nil)
        try Data(#"{"logLevel": "debug"}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try ConfigFile.load(path: path)?.logLevel == .debug)
        try Data(#"{"port": -1}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ConfigFileError.invalid(path: path, reason: "port must be between 0 and 65535")) {
            try ConfigFile.load(path: path)
        }
        #expect(throws: ConfigFileError.self) { try ConfigFile.load(path: directory.url.path) }
    }

    @Test func theDefaultPathFollowsXdgConfigHome() {
        #expect(ConfigFile.defaultPath(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]) == "/c/peerd/config.json")
        #expect(
            ConfigFile.defaultPath(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/h"])
                == "/h/.config/peerd/config.json"
        )
        #expect(ConfigFile.defaultPath(environment: [:]) == nil)
    }

    @Test func aReloadAppliesNewPeersAndTheLevelAndListsWhatWaitsForARestart() throws {
        let old = try parse(#"{"port": 7601, "peers": ["10.0.0.2:7601", "10.0.0.3:7601"], "logLevel": "debug"}"#)
        let new = try parse(#"{"port": 7602, "peers": ["10.0.0.3:7601", "10.0.0.4:7601"], "mdns": false}"#)
        let change = ConfigChange(from: old, to: new)
        #expect(change.logLevel == .info)
        #expect(change.addedPeers == [PeerAddress(host: "10.0.0.4", port: 7601)])
        #expect(change.needsRestart == ["port", "mdns", "peers(removed)"])
        #expect(ConfigChange(from: new, to: new).needsRestart.isEmpty)
    }

    /// A value for each key that differs from an empty file's.
    static let changedValues: [DaemonSettings.Key: String] = [
        .name: #""den""#, .port: "7605", .listenAddress: #""::1""#, .stateDir: #""/srv/peerd""#,
        .socket: #""/run/p.sock""#, .mdns: "false", .peers: #"["10.0.0.9:7601"]"#, .logLevel: #""debug""#,
        .tmdbTokenFile: #""/t""#, .tmdbURL: #""http://127.0.0.1:9""#, .tmdbLanguage: #""fr-FR""#, .web: "false",
        .webAddresses: #""::1""#, .webPort: "7609", .guests: "false", .guestAddress: #""10.0.0.5""#, .guestPort: "7610",
        .devices: "false", .deviceAddress: #""10.0.0.6""#, .devicePort: "7611", .newsInterval: #""6h""#,
        .notifications: "false",
    ]

    @Test(arguments: DaemonSettings.Key.allCases)
    func everyKeyIsAppliedOnReloadOrReportedAsNeedingARestart(key: DaemonSettings.Key) throws {
        let value = try #require(Self.changedValues[key], "a changed value for \(key.rawValue)")
        let change = ConfigChange(from: DaemonSettings(), to: try parse(#"{"\#(key.rawValue)": \#(value)}"#))
        switch key {
        case .logLevel: #expect(change.logLevel == .debug && change.needsRestart.isEmpty)
        case .peers: #expect(change.addedPeers == [PeerAddress(host: "10.0.0.9", port: 7601)])
        default: #expect(change.needsRestart == [key.rawValue])
        }
        #expect(ConfigChange.appliedOnReload.contains(key) == [.logLevel, .peers].contains(key))
    }
}

extension ConfigFileTests {
    @Test func aFileNamedByConfigMustExistButTheDefaultOneMayNot() throws {
        let directory = try ScratchDirectory("config")
        defer { directory.remove() }
        let missing = directory.path("config.json")
        #expect(throws: ConfigFileError.unreadable(path: missing, reason: "no such file")) {
            try ConfigFile.load(given: missing, environment: [:])
        }
        #expect(
            try ConfigFile.load(given: nil, environment: ["XDG_CONFIG_HOME": directory.url.path]) == DaemonSettings()
        )
        #expect(try ConfigFile.load(given: nil, environment: [:]) == DaemonSettings())
    }
}
