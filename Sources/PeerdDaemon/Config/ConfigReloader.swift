import Logging
import PeerdLoops
import PeerdModel
import ServiceLifecycle
import UnixSignals

/// Re-reads the config file on SIGHUP (`systemctl --user reload peerd`) and applies what can change
/// while peerd runs: the log level, unless `--log-level` fixed it, and new peers, which `dial`
/// starts dialing. A file that no longer parses is rejected whole and the running settings stay.
///
/// The hangups are any sequence and the dialer a closure, so tests feed hangups and see what was
/// dialed without signals or sockets; peerd itself traps SIGHUP (`init(path:loaded:levels:dialer:logger:)`).
final class ConfigReloader<Hangups: AsyncSequence & Sendable>: Service where Hangups.Element: Sendable {
    private let path: String?
    private let initial: DaemonSettings
    private let hangups: Hangups
    private let levels: LogLevelOverride?
    private let dial: @Sendable (PeerAddress) async -> Void
    private let logger: Logger

    init(
        path: String?,
        loaded: DaemonSettings,
        hangups: Hangups,
        levels: LogLevelOverride?,
        dial: @escaping @Sendable (PeerAddress) async -> Void,
        logger: Logger
    ) {
        self.path = path
        self.initial = loaded
        self.hangups = hangups
        self.levels = levels
        self.dial = dial
        self.logger = logger
    }

    func run() async throws {
        var loaded = initial
        for try await _ in hangups.cancelOnGracefulShutdown() {
            guard let path else {
                logger.notice("SIGHUP: no config file to reload (no home directory to look in)")
                continue
            }
            do {
                let newer = try await BlockingPool.run { () throws(ConfigFileError) in try ConfigFile.load(path: path) }
                await apply(
                    ConfigChange(from: loaded, to: newer ?? DaemonSettings()),
                    path: path,
                    missing: newer == nil
                )
                loaded = newer ?? DaemonSettings()
            } catch {
                logger.error("config file rejected; the running settings stay", metadata: ["error": "\(error)"])
            }
        }
    }

    private func apply(_ change: ConfigChange, path: String, missing: Bool) async {
        for peer in change.addedPeers { await dial(peer) }
        var applied: Logger.Metadata = ["path": "\(path)"]
        if missing { applied["file"] = "missing, read as empty" }
        applied["logLevel"] = levels == nil ? "unchanged: --log-level was given" : "\(change.logLevel)"
        if !change.addedPeers.isEmpty {
            applied["newPeers"] = "\(change.addedPeers.map(\.description).joined(separator: ","))"
        }
        if !change.needsRestart.isEmpty { applied["needsRestart"] = "\(change.needsRestart.joined(separator: ","))" }
        // Said before a level that hides notices takes effect, so turning logging down is reported too.
        let announceFirst = levels == nil || change.logLevel > .notice
        if announceFirst { logger.notice("config reloaded", metadata: applied) }
        levels?.level = change.logLevel
        if !announceFirst { logger.notice("config reloaded", metadata: applied) }
    }
}

extension ConfigReloader where Hangups == UnixSignalsSequence {
    /// Traps SIGHUP now, before peerd reports ready: its default action would end the process.
    convenience init(
        path: String?,
        loaded: DaemonSettings,
        levels: LogLevelOverride?,
        dialer: PeerDialer,
        logger: Logger
    ) async {
        self.init(
            path: path,
            loaded: loaded,
            hangups: await UnixSignalsSequence(trapping: .sighup),
            levels: levels,
            // Throws only when saving, which this skips.
            dial: { peer in try? await dialer.add(peer, remember: false) },
            logger: logger
        )
    }
}
