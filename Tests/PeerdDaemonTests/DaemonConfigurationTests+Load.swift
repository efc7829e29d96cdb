import Foundation
import Logging
import PeerControl
import PeerdTestKit
import Testing

@testable import PeerdDaemon

extension DaemonConfigurationTests {
    /// A config file in a fresh directory, which is also the home: no TMDB token to find there.
    func withConfigFile(_ json: String, _ body: (String, PeerdEnvironment) throws -> Void) throws {
        let home = try ScratchDirectory("load")
        defer { home.remove() }
        let path = home.path("peerd.json")
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        try body(path, PeerdEnvironment(variables: ["HOME": home.url.path]))
    }

    @Test func theFilesLevelAppliesAtOnceAndOnReloadUnlessTheFlagFixedIt() throws {
        try withConfigFile(#"{"logLevel": "debug", "port": 7605}"#) { path, environment in
            var flags = DaemonFlags()
            flags.config = path
            let levels = LogLevelOverride()
            let fromFile = try DaemonConfiguration.load(flags, environment: environment, levels: levels)
            #expect(fromFile.port == 7605 && fromFile.configPath == path)
            #expect(levels.level == .debug && fromFile.logLevels === levels)
            #expect(fromFile.tmdb.settings == nil && fromFile.groupKey == nil)

            flags.logLevel = .warning
            let fixed = try DaemonConfiguration.load(flags, environment: environment, levels: levels)
            #expect(levels.level == .warning && fixed.logLevels == nil)
        }
    }

    @Test func aBrokenFileStopsTheStartWithItsPathAndWhatToFix() throws {
        try withConfigFile(#"{"port": "7605"}"#) { path, environment in
            var flags = DaemonFlags()
            flags.config = path
            #expect(throws: ConfigFileError.invalid(path: path, reason: "port must be a whole number")) {
                try DaemonConfiguration.load(flags, environment: environment, levels: LogLevelOverride())
            }
        }
    }
}
