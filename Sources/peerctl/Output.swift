import ArgumentParser
import PeerdModel
import PeerdWire

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Everything peerctl prints goes through here: tables, JSON, notes on stderr.
enum Output {
    static func json(_ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try! encoder.encode(value), as: UTF8.self))
    }

    /// One compact JSON object per line, for streams.
    static func jsonLine(_ value: some Encodable) {
        print(String(decoding: WireCoding.encode(value), as: UTF8.self))
    }

    /// `bytes` on stdout as they are (a file `export` writes); exits 74 if stdout is closed.
    static func bytes(_ bytes: [UInt8]) throws {
        flush()
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                error("can't write to standard output: \(String(cString: strerror(errno)))")
                throw ExitCode(74)
            }
            written += count
        }
    }

    static func error(_ message: String) {
        FileHandleless.standardError("peerctl: " + message + "\n")
    }

    static func note(_ message: String) {
        FileHandleless.standardError(message + "\n")
    }

    static func flush() { fflush(nil) }

    /// Unblocks SIGINT, SIGTERM and SIGHUP, which a parent may have left blocked in the mask peerctl
    /// inherited, and ends the process on SIGINT and SIGTERM even when it inherited them ignored (a
    /// shell's background job ignores SIGINT), so Ctrl-C and `kill` always end `list --follow` and
    /// `news --follow`. SIGHUP keeps what it inherited: `nohup peerctl list --follow` outlives its terminal.
    static func allowInterrupts() {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, signal) }
        sigprocmask(SIG_UNBLOCK, &signals, nil)
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }

    static func unexpected() -> ExitCode {
        error("peerd answered with an unexpected message; are peerd and peerctl the same version?")
        return ExitCode(1)
    }

    static func describe(_ movie: MovieRecord) -> String {
        describe(id: movie.movieId, title: movie.title, year: movie.year)
    }

    static func describe(_ movie: Movie) -> String {
        describe(id: movie.id.rawValue, title: movie.title, year: movie.year)
    }

    static func describe(id: Int, title: String?, year: Int?) -> String {
        var text = String(id)
        if let title { text += " \(title)" }
        if let year { text += " (\(year))" }
        return text
    }

    static func describe(_ change: ChangeRecord) -> String {
        let movie = describe(id: change.movieId, title: change.title, year: change.year)
        return switch (change.change, change.op) {
        case (.added, _): "+ \(movie)  added by \(change.by)"
        case (.removed, _): "- \(movie)  removed by \(change.by)"
        case (.updated, "describe"): "~ \(movie)  details fetched by \(change.by)"
        case (.updated, "mark"): "~ \(movie)  marked by \(change.by)"
        case (.updated, "watch"): "~ \(movie)  watch logged by \(change.by)"
        case (.updated, "remove"): "~ \(movie)  an add of it removed by \(change.by)"
        case (.updated, _): "~ \(movie)  also added by \(change.by)"
        }
    }

    static func nowMillis() -> Int64 { Wallclock.millis() }

    /// The first line of `text`, cut to `width` characters (ending with `…` when cut).
    static func firstLine(_ text: String, width: Int) -> String {
        let line = text.prefix { $0 != "\n" }
        return line.count <= width ? String(line) : line.prefix(width - 1) + "…"
    }

    /// `text` broken into lines of at most `width` characters, at spaces.
    static func wrapped(_ text: String, width: Int) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }

    /// `HH:MM:SS` today, else `YYYY-MM-DD HH:MM`, in local time.
    static func clockTime(_ millis: Int64) -> String {
        LocalTime.at(millis: millis).shown(today: .now)
    }

    /// `word` as a shell command takes it: quoted when it holds anything but letters, digits, `-`
    /// and `_` (`sam`, `'living room'`).
    static func shellWord(_ word: String) -> String {
        word.contains(where: { !$0.isLetter && !$0.isNumber && $0 != "-" && $0 != "_" }) ? "'\(word)'" : word
    }

    /// `YYYY-MM-DD HH:MM`, in local time.
    static func stamp(_ millis: Int64) -> String { LocalTime.at(millis: millis).stamp }

    /// `7.5`, `8.0`: one decimal, rounded.
    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// `42s`, `5m 3s`, `2h 10m`, `3d 4h`.
    static func duration(_ seconds: Double) -> String {
        let s = max(0, Int(seconds.rounded()))
        switch s {
        case ..<60: return "\(s)s"
        case ..<3600: return "\(s / 60)m \(s % 60)s"
        case ..<86400: return "\(s / 3600)h \(s % 3600 / 60)m"
        default: return "\(s / 86400)d \(s % 86400 / 3600)h"
        }
    }

    /// Left-aligned columns, two spaces apart.
    struct Table {
        private var rows: [[String]]

        init(_ header: [String]) { rows = [header] }

        mutating func add(_ row: [String]) { rows.append(row) }

        /// Each cell's width is counted once: a list of thousands of rows is most of a table's time.
        func print() {
            let counts = rows.map { $0.map(\.width) }
            let widths = rows[0].indices.map { column in counts.map { $0[column] }.max() ?? 0 }
            for (row, rowCounts) in zip(rows, counts) {
                var line = ""
                for (column, cell) in row.enumerated() {
                    if column > 0 { line += "  " }
                    line += cell
                    if column < row.count - 1 {
                        line += String(repeating: " ", count: widths[column] - rowCounts[column])
                    }
                }
                Swift.print(line)
            }
        }
    }
}

/// Writes to stderr without Foundation's FileHandle.
enum FileHandleless {
    static func standardError(_ text: String) {
        var text = text
        text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    /// The characters a table counts for this cell: its bytes when it is ASCII without a CR (so
    /// each byte is a character), else its characters.
    var width: Int {
        utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D } ? utf8.count : count
    }
}
