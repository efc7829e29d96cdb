import Logging
import PeerdModel
import PeerdTestKit
import Testing

@testable import PeerdDaemon

/// The reloader in-process: the test writes the file, sends hangups down a stream and waits for
/// what the reloader logs; by then the new peers were dialed and the level applied.
@Suite("Reloading the config file on SIGHUP", .timeLimit(.minutes(1)))
struct ConfigReloaderTests {
    static let reloaded = "config reloaded"
    static let rejected = "config file rejected; the running settings stay"

    @Test func aHangupAppliesTheLevelDialsNewPeersAndNamesWhatWaitsForARestart() async throws {
        let harness = try ReloadHarness()
        let levels = LogLevelOverride()
        let start = try harness.start(with: #"{"logLevel": "info", "peers": ["10.0.0.2:7601"]}"#)
        try await harness.run(loaded: start, levels: levels) {
            try harness.write(
                #"{"logLevel": "debug", "peers": ["10.0.0.2:7601", "10.0.0.3:7601"], "port": 7605, "webPort": 7609}"#
            )
            let record = try #require(await harness.hangup(expecting: Self.reloaded))
            #expect(harness.dialed == [PeerAddress(host: "10.0.0.3", port: 7601)])
            #expect(levels.level == .debug)
            #expect(record.metadata["newPeers"] == "10.0.0.3:7601")
            #expect(record.metadata["needsRestart"] == "port,webPort")

            let again = try #require(await harness.hangup(expecting: Self.reloaded), "the same file again")
            #expect(again.metadata["newPeers"] == nil && again.metadata["needsRestart"] == nil)
            #expect(harness.dialed.count == 1)
        }
    }

    @Test func aBrokenFileIsRejectedWholeAndTheRunningSettingsStay() async throws {
        let harness = try ReloadHarness()
        let levels = LogLevelOverride()
        levels.level = .warning
        let start = try harness.start(with: #"{"logLevel": "warning", "port": 7605}"#)
        try await harness.run(loaded: start, levels: levels) {
            try harness.write(#"{"logLevel": "debug", "peers": ["10.0.0.3:7601"], "prot": 7606}"#)
            let rejection = try #require(await harness.hangup(expecting: Self.rejected))
            #expect(rejection.metadata["error"]?.description.contains("unknown key 'prot'") == true)
            #expect(levels.level == .warning)
            #expect(harness.dialed.isEmpty)

            try harness.write(#"{"logLevel": "debug", "port": 7605}"#)
            let record = try #require(await harness.hangup(expecting: Self.reloaded))
            #expect(levels.level == .debug)
            #expect(record.metadata["needsRestart"] == nil)
            #expect(harness.dialed.isEmpty)
        }
    }

    @Test func aRemovedFileReadsAsEmpty() async throws {
        let harness = try ReloadHarness()
        let levels = LogLevelOverride()
        let start = try harness.start(with: #"{"logLevel": "debug", "port": 7605, "peers": ["10.0.0.2:7601"]}"#)
        try await harness.run(loaded: start, levels: levels) {
            try harness.remove()
            let record = try #require(await harness.hangup(expecting: Self.reloaded))
            #expect(record.metadata["file"] == "missing, read as empty")
            #expect(record.metadata["needsRestart"] == "port,peers(removed)")
            #expect(levels.level == .info)
        }
    }

    @Test func aLevelGivenOnTheCommandLineStaysAndNewPeersStillApply() async throws {
        let harness = try ReloadHarness()
        try await harness.run(loaded: DaemonSettings(), levels: nil) {
            try harness.write(#"{"logLevel": "trace", "peers": ["10.0.0.4:7601"]}"#)
            let record = try #require(await harness.hangup(expecting: Self.reloaded))
            #expect(record.metadata["logLevel"] == "unchanged: --log-level was given")
            #expect(harness.dialed == [PeerAddress(host: "10.0.0.4", port: 7601)])
        }
    }

    @Test func withoutAFileToReadAHangupIsOnlyNoted() async throws {
        let harness = try ReloadHarness(hasConfigPath: false)
        let levels = LogLevelOverride()
        levels.level = .debug
        try await harness.run(loaded: DaemonSettings(), levels: levels) {
            let record = try #require(await harness.hangup(expecting: ReloadHarness.noFile))
            #expect(record.level == .notice)
            #expect(levels.level == .debug)
        }
    }
}
