package import Logging
import PeerdModel
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How one log event becomes one line: the message, then `key=value` metadata in key order.
///
/// ```
/// journal    <6>peer connected name=bob peer=3f2a
/// plain      2025-11-21T14:03:22.123+0000 info peer connected name=bob peer=3f2a
/// terminal   the same as plain, with the level in colour
/// ```
///
/// Under journald the `<N>` prefix is the syslog priority, which journald strips and stores (so
/// `journalctl -p warning` works); journald stamps the time itself. A line never spans two: newlines
/// and other control characters are escaped, so journald keeps one entry per event.
package struct LogLineFormat: Sendable, Equatable {
    package enum Style: Sendable, Equatable {
        /// stderr is journald's stream (`$JOURNAL_STREAM` names it): priority prefix, no time, no colour.
        case journal
        /// stderr is a terminal: time, and the level in ANSI colour.
        case terminal
        /// Anything else (a file, a pipe): time, no colour.
        case plain
    }

    package var style: Style

    package init(style: Style) {
        self.style = style
    }

    /// The style for a descriptor: journal when `$JOURNAL_STREAM` (`<device>:<inode>`) names this very
    /// descriptor, as systemd.exec(5) says to check, so a child whose stderr was redirected does not
    /// inherit the prefixes; terminal when it is a TTY; plain otherwise.
    package static func style(for descriptor: Int32, environment: [String: String]) -> Style {
        if isatty(descriptor) == 1 { return .terminal }
        // SystemPackage's Stat, not Glibc's `stat`: whether a C struct's members count as Glibc's or
        // as another C module's that includes <sys/stat.h> varies from build to build, and
        // MemberImportVisibility then refuses them (swiftlang/swift#85427).
        if let stream = environment["JOURNAL_STREAM"], let info = try? FileDescriptor(rawValue: descriptor).stat(),
            stream == "\(info.deviceID.rawValue):\(info.inode.rawValue)"
        {
            return .journal
        }
        return .plain
    }

    /// One line, newline included. `timestamp` is ignored in the journal style.
    package func line(level: Logger.Level, message: String, metadata: Logger.Metadata, timestamp: String) -> String {
        var line: String
        switch style {
        case .journal: line = "<\(Self.syslogPriority(level))>"
        case .plain: line = "\(timestamp) \(level) "
        case .terminal: line = "\(timestamp) \(Self.colour(level))\(level)\u{1B}[0m "
        }
        line += Self.escaped(message)
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            line += " \(Self.escaped(key))=\(Self.quoted("\(value)"))"
        }
        return line + "\n"
    }

    /// syslog(3) priorities: journald parses `<N>` at the start of a line as one of these.
    package static func syslogPriority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7  // LOG_DEBUG
        case .info: 6  // LOG_INFO
        case .notice: 5  // LOG_NOTICE
        case .warning: 4  // LOG_WARNING
        case .error: 3  // LOG_ERR
        case .critical: 2  // LOG_CRIT
        }
    }

    private static func colour(_ level: Logger.Level) -> String {
        switch level {
        case .trace, .debug: "\u{1B}[2m"
        case .info: "\u{1B}[32m"
        case .notice: "\u{1B}[36m"
        case .warning: "\u{1B}[33m"
        case .error: "\u{1B}[31m"
        case .critical: "\u{1B}[1;31m"
        }
    }

    /// A value as is, or in double quotes when it is empty or holds a space, a quote, `=`, a backslash
    /// or a control character.
    static func quoted(_ value: String) -> String {
        let special = value.unicodeScalars.contains { scalar in
            scalar == " " || scalar == "\"" || scalar == "=" || scalar == "\\" || isControl(scalar)
        }
        guard value.isEmpty || special else { return value }
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            default: result += escaped(scalar)
            }
        }
        return result + "\""
    }

    /// Control characters as `\n`, `\t`, `\r` or `\u{…}`, so the text stays on one line.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return text.unicodeScalars.map(escaped).joined()
    }

    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        case _ where isControl(scalar): "\\u{\(String(scalar.value, radix: 16))}"
        default: String(scalar)
        }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control
    }

    /// Local time with milliseconds and offset: `2025-11-21T14:03:22.123+0100`.
    package static func timestamp() -> String {
        let now = Wallclock.millis()
        var seconds = time_t(now / 1000)
        var parts = tm()
        localtime_r(&seconds, &parts)
        func format(_ pattern: String) -> String {
            var buffer = [CChar](repeating: 0, count: 32)
            let count = strftime(&buffer, buffer.count, pattern, &parts)
            return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        let millis = String(1000 + now % 1000).dropFirst()  // zero-padded to 3 digits
        return format("%Y-%m-%dT%H:%M:%S") + "." + millis + format("%z")
    }
}
