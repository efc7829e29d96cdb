import Foundation
import PeerdModel
import PeerdStore
import PeerdSync
import Testing

@testable import PeerdDaemon

#if canImport(Glibc)
import Glibc
#endif

/// For every setting: the flag wins over the config file, which wins over the default; some
/// defaults come from the environment (README's table of flags, `peerd --help`).
@Suite("Which source each of peerd's settings comes from")
struct DaemonConfigurationTests {
    static let environment = [
        "HOME": "/home/ada", "XDG_STATE_HOME": "/home/ada/state", "XDG_RUNTIME_DIR": "/run/user/1000",
        "XDG_CONFIG_HOME": "/home/ada/conf",
    ]

    func resolve(
        _ flags: DaemonFlags = DaemonFlags(),
        file: DaemonSettings = DaemonSettings(),
        environment: [String: String] = Self.environment
    ) throws -> DaemonConfiguration {
        try DaemonConfiguration(flags: flags, file: file, environment: environment, hostName: "ada-laptop")
    }

    @Test(arguments: DaemonSettings.Key.allCases)
    func theFlagWinsOverTheFileWhichWinsOverTheDefault(key: DaemonSettings.Key) throws {
        let setting = Setting.of(key)
        let file = try ConfigFile.parse(Data(#"{"\#(key.rawValue)": \#(setting.json)}"#.utf8))
        var flags = DaemonFlags()
        setting.flag(&flags)
        #expect(setting.read(try resolve()) == setting.byDefault, "with neither")
        #expect(setting.read(try resolve(file: file)) == setting.fromFile, "with the file")
        #expect(setting.read(try resolve(flags, file: file)) == setting.fromFlag, "with the flag and the file")
    }

    @Test func peerdSocketComesBetweenTheFlagAndTheFileSoPeerctlFindsTheSameSocket() throws {
        var environment = Self.environment
        environment["PEERD_SOCKET"] = "/run/env.sock"
        let file = try ConfigFile.parse(Data(#"{"socket": "/run/file.sock"}"#.utf8))
        #expect(try resolve(file: file, environment: environment).socketPath == "/run/env.sock")
        var flags = DaemonFlags()
        flags.socket = "/run/flag.sock"
        #expect(try resolve(flags, file: file, environment: environment).socketPath == "/run/flag.sock")
        environment["PEERD_SOCKET"] = ""
        #expect(try resolve(file: file, environment: environment).socketPath == "/run/file.sock", "empty is unset")
    }

    @Test func onlyTheDefaultSocketIsOneWhoseDirectoryPeerdMakesPrivate() throws {
        #expect(try resolve().socketIsDefault)
        var flags = DaemonFlags()
        flags.socket = "/run/flag.sock"
        #expect(try !resolve(flags).socketIsDefault)
        #expect(try !resolve(file: ConfigFile.parse(Data(#"{"socket": "/run/f.sock"}"#.utf8))).socketIsDefault)
        #expect(try !resolve(environment: Self.environment.merging(["PEERD_SOCKET": "/e.sock"]) { $1 }).socketIsDefault)
    }

    @Test func defaultsFallBackWhenXdgVariablesAreMissing() throws {
        let configuration = try resolve(environment: ["HOME": "/home/ada"])
        #expect(configuration.stateDirectory == "/home/ada/.local/state/peerd")
        #expect(configuration.socketPath == "/tmp/peerd-\(getuid())/control.sock")
        #expect(configuration.configPath == "/home/ada/.config/peerd/config.json")
    }

    @Test func withoutHomeOrXdgStateHomeTheStateDirectoryMustBeNamed() throws {
        #expect(throws: StoreError.noStateDirectory) { try resolve(environment: [:]) }
        #expect(
            try resolve(file: ConfigFile.parse(Data(#"{"stateDir": "/srv"}"#.utf8)), environment: [:]).stateDirectory
                == "/srv"
        )
        var flags = DaemonFlags()
        flags.stateDir = "/srv/flag"
        #expect(try resolve(flags, environment: [:]).stateDirectory == "/srv/flag")
        #expect(try resolve(flags, environment: [:]).configPath == nil)
    }

    @Test func settingsOnlyAFlagGivesTakeItOrTheirDefault() throws {
        let defaults = try resolve()
        #expect(defaults.configPath == "/home/ada/conf/peerd/config.json")
        #expect(defaults.groupSecretFile == nil && !defaults.tmdb.disabled && defaults.session.relayTree)
        #expect(defaults.session.keepaliveInterval == .seconds(10))
        #expect(defaults.environment == Self.environment)
        var flags = DaemonFlags()
        flags.config = "/etc/peerd.json"
        flags.groupSecretFile = "/home/ada/group.secret"
        flags.noTmdb = true
        flags.flood = true
        flags.keepaliveInterval = .milliseconds(1500)
        let flagged = try resolve(flags)
        #expect(flagged.configPath == "/etc/peerd.json")
        #expect(flagged.groupSecretFile == "/home/ada/group.secret")
        #expect(flagged.tmdb.disabled && !flagged.session.relayTree)
        #expect(flagged.session.keepaliveInterval == .milliseconds(1500))
    }

    @Test func theFileThatWasReadIsKeptForReloads() throws {
        let file = try ConfigFile.parse(Data(#"{"port": 7605, "logLevel": "debug"}"#.utf8))
        #expect(try resolve(file: file).config == file)
    }
}

extension DaemonConfigurationTests {
    @Test func noMdnsAndNoWebTurnOffWhatTheFileTurnsOn() throws {
        let file = try ConfigFile.parse(Data(#"{"mdns": true, "web": true}"#.utf8))
        var flags = DaemonFlags()
        flags.mdns = false
        flags.web = false
        let configuration = try resolve(flags, file: file)
        #expect(!configuration.mdns && !configuration.web.enabled)
    }
}
