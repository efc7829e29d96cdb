import Logging
import SystemPackage
import Testing

@testable import PeerdDaemon

#if canImport(Glibc)
import Glibc
#endif

@Suite("One log line per event, as journald and terminals want it")
struct LogLineFormatTests {
    let metadata: Logger.Metadata = ["peer": "3f2a", "name": "bob"]

    @Test func underJournaldALineIsThePriorityThenTheMessageThenSortedMetadata() {
        let line = LogLineFormat(style: .journal)
            .line(level: .info, message: "peer connected", metadata: metadata, timestamp: "ignored")
        #expect(line == "<6>peer connected name=bob peer=3f2a\n")
    }

    @Test func everyLevelMapsToItsSyslogPriority() {
        let expected: [Logger.Level: Int] = [
            .trace: 7, .debug: 7, .info: 6, .notice: 5, .warning: 4, .error: 3, .critical: 2,
        ]
        for (level, priority) in expected {
            let line = LogLineFormat(style: .journal).line(level: level, message: "m", metadata: [:], timestamp: "")
            #expect(line == "<\(priority)>m\n")
        }
    }

    @Test func elsewhereALineStartsWithTheTimeAndTheLevel() {
        let line = LogLineFormat(style: .plain)
            .line(
                level: .warning,
                message: "disk slow",
                metadata: ["ms": "900"],
                timestamp: "2025-11-21T14:03:22.123+0000"
            )
        #expect(line == "2025-11-21T14:03:22.123+0000 warning disk slow ms=900\n")
    }

    @Test func onlyATerminalGetsColour() {
        let coloured = LogLineFormat(style: .terminal).line(level: .error, message: "m", metadata: [:], timestamp: "T")
        #expect(coloured == "T \u{1B}[31merror\u{1B}[0m m\n")
        for style in [LogLineFormat.Style.plain, .journal] {
            #expect(
                !LogLineFormat(style: style).line(level: .error, message: "m", metadata: [:], timestamp: "T").contains(
                    "\u{1B}"
                )
            )
        }
    }

    @Test func valuesWithSpacesQuotesOrEqualsAreQuotedAndEscaped() {
        let line = LogLineFormat(style: .journal).line(
            level: .info,
            message: "m",
            metadata: ["a": "two words", "b": "say \"hi\"", "c": "k=v", "d": "", "e": "back\\slash", "f": "plain"],
            timestamp: ""
        )
        #expect(line == #"<6>m a="two words" b="say \"hi\"" c="k=v" d="" e="back\\slash" f=plain"# + "\n")
    }

    @Test func newlinesAndControlCharactersNeverSplitALine() {
        let line = LogLineFormat(style: .journal).line(
            level: .critical,
            message: "cannot start:\nport in use\u{7}",
            metadata: ["error": "first\nsecond\tthird"],
            timestamp: ""
        )
        #expect(line == #"<2>cannot start:\nport in use\u{7} error="first\nsecond\tthird""# + "\n")
        #expect(line.filter { $0 == "\n" }.count == 1)
    }

    @Test func theTimestampIsLocalIsoTimeWithMillisecondsAndOffset() throws {
        let pattern = try Regex(#"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{4}$"#)
        #expect(LogLineFormat.timestamp().wholeMatch(of: pattern) != nil)
    }

    @Test func journalStyleOnlyWhenJournalStreamNamesThisVeryDescriptor() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        // swift-system's Stat: Glibc's `stat` is ambiguous once Dispatch's C module is in view.
        let info = try Stat(FileDescriptor(rawValue: ends[1]))
        let stream = "\(info.deviceID.rawValue):\(info.inode.rawValue)"
        #expect(LogLineFormat.style(for: ends[1], environment: ["JOURNAL_STREAM": stream]) == .journal)
        #expect(
            LogLineFormat.style(for: ends[1], environment: ["JOURNAL_STREAM": "\(info.deviceID.rawValue):1"]) == .plain
        )
        #expect(LogLineFormat.style(for: ends[1], environment: [:]) == .plain)
    }

    @Test func aTerminalIsATerminalEvenUnderJournalStream() throws {
        // The primary side of a new pseudo-terminal is a terminal as far as isatty(3) is concerned.
        let terminal = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(terminal >= 0)
        defer { close(terminal) }
        #expect(LogLineFormat.style(for: terminal, environment: ["JOURNAL_STREAM": "1:2"]) == .terminal)
    }

    @Test func aSharedOverrideChangesTheLevelOfEveryHandler() {
        let override = LogLevelOverride()
        var first = LineLogHandler(level: .info, override: override, format: LogLineFormat(style: .plain))
        let second = LineLogHandler(level: .warning, override: override, format: LogLineFormat(style: .plain))
        #expect(first.logLevel == .info && second.logLevel == .warning)
        first.logLevel = .error
        #expect(first.logLevel == .error && second.logLevel == .warning)
        override.level = .debug
        #expect(first.logLevel == .debug && second.logLevel == .debug)
        override.level = nil
        #expect(first.logLevel == .error && second.logLevel == .warning)
    }
}
