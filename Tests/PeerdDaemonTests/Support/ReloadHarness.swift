import Foundation
import PeerdModel
import PeerdTestKit
import ServiceLifecycleTestKit
import Synchronization
import Testing

@testable import PeerdDaemon

/// A ``ConfigReloader`` on a config file in a fresh directory: the test writes the file, sends
/// hangups and reads what was dialed and logged.
final class ReloadHarness: Sendable {
    static let noFile = "SIGHUP: no config file to reload (no home directory to look in)"

    let path: String?
    private let directory: ScratchDirectory
    private let hangups = AsyncStream.makeStream(of: Void.self)
    private let recorder = LogRecorder()
    private let dials = Mutex<[PeerAddress]>([])

    /// The config file is `config.json` in a fresh directory; without `hasConfigPath` there is none
    /// to reload (no home directory to look in).
    init(hasConfigPath: Bool = true) throws {
        directory = try ScratchDirectory("reload")
        path = hasConfigPath ? directory.path("config.json") : nil
    }

    /// The peers the reloader asked to dial, in order.
    var dialed: [PeerAddress] { dials.withLock { $0 } }

    /// Writes the config file, broken or not.
    func write(_ json: String) throws {
        try Data(json.utf8).write(to: URL(fileURLWithPath: try #require(path)))
    }

    /// Writes the config file peerd started with, and returns it as read then.
    func start(with json: String) throws -> DaemonSettings {
        try write(json)
        return try ConfigFile.parse(Data(json.utf8))
    }

    func remove() throws {
        try FileManager.default.removeItem(atPath: try #require(path))
    }

    /// Sends one hangup and waits for the reloader to log `message` once more.
    func hangup(expecting message: String) async -> LogRecorder.Record? {
        let seen = recorder.records.filter { $0.message == message }.count
        hangups.continuation.yield()
        var records = recorder.stream(of: message).dropFirst(seen).makeAsyncIterator()
        return await records.next()
    }

    /// Runs a reloader that starts from `loaded` while `body` runs, then shuts it down gracefully.
    func run(
        loaded: DaemonSettings,
        levels: LogLevelOverride?,
        _ body: () async throws -> Void
    ) async throws {
        let reloader = ConfigReloader(
            path: path,
            loaded: loaded,
            hangups: hangups.stream,
            levels: levels,
            dial: { peer in self.dials.withLock { $0.append(peer) } },
            logger: recorder.logger
        )
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup { group in
                group.addTask { try await reloader.run() }
                try await body()
                trigger.triggerGracefulShutdown()
                try await group.waitForAll()
            }
        }
    }
}
