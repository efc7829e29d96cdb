package import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes each event to stderr as one `LogLineFormat` line, in one `write(2)` unless it comes back short.
///
/// The level is a value per handler, as swift-log requires, except that a shared `LogLevelOverride`
/// wins when set: that is how a SIGHUP reload changes the level of every logger at once.
package struct LineLogHandler: LogHandler {
    package var metadata: Logger.Metadata = [:]
    package var metadataProvider: Logger.MetadataProvider?
    private var ownLevel: Logger.Level
    private let override: LogLevelOverride
    private let format: LogLineFormat

    package init(
        level: Logger.Level,
        override: LogLevelOverride,
        format: LogLineFormat,
        metadataProvider: Logger.MetadataProvider? = nil
    ) {
        self.ownLevel = level
        self.override = override
        self.format = format
        self.metadataProvider = metadataProvider
    }

    package var logLevel: Logger.Level {
        get { override.level ?? ownLevel }
        set { ownLevel = newValue }
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let explicit = event.metadata { merged.merge(explicit) { _, new in new } }
        if let error = event.error { merged["error"] = "\(error)" }
        let timestamp = format.style == .journal ? "" : LogLineFormat.timestamp()
        let line = format.line(
            level: event.level,
            message: event.message.description,
            metadata: merged,
            timestamp: timestamp
        )
        Self.output.withLock { _ in
            var bytes = Array(line.utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                bytes = bytes.dropFirst(written)
            }
        }
    }

    /// Keeps lines whole when a write comes back short.
    private static let output = Mutex(())
}

/// A log level that, once set, every `LineLogHandler` sharing it uses instead of its own.
package final class LogLevelOverride: Sendable {
    private let storage = Mutex<Logger.Level?>(nil)

    package init() {}

    package var level: Logger.Level? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
