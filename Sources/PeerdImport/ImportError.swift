/// Why a file could not be imported. Nothing of such a file is imported: each message says what is
/// wrong and where (the file, the entry of a ZIP, the line), and what to do about it.
///
/// `place` names the file as the user gave it, followed by the entry for a part of a ZIP
/// (`export.zip: diary.csv`).
package enum ImportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be opened or read (`reason` is the system's).
    case cannotRead(path: String, reason: String)
    /// The file is larger than ``ImportLimits/maxFileBytes``; it was not read.
    case fileTooLarge(path: String, bytes: Int, limit: Int)
    /// None of the formats peerd knows; `seen` says what the file looked like.
    case unknownFormat(place: String, seen: String)
    /// Letterboxd's watchlist.csv and watched.csv share one header; the file's name says neither.
    case ambiguousLetterboxdCSV(place: String)
    /// A byte that is not UTF-8, on this line.
    case notUTF8(place: String, line: Int, byte: UInt8)
    /// The record starting on this line has another number of fields than the header.
    case brokenQuoting(place: String, line: Int, fields: Int, expected: Int)
    /// The last record's quote, opened on this line, is never closed.
    case unclosedQuote(place: String, line: Int)
    /// More records than ``ImportLimits/maxRows``.
    case tooManyRows(place: String, rows: Int, limit: Int)
    /// A ZIP of more entries than ``ImportLimits/maxEntries``.
    case tooManyEntries(place: String, limit: Int)
    /// A ZIP entry whose header says it is larger than ``ImportLimits/maxEntryBytes``.
    case entryTooLarge(place: String, declared: UInt64, limit: Int)
    /// A ZIP entry that inflated past ``ImportLimits/maxEntryBytes`` although its header said less:
    /// reading stopped after `inflated` bytes.
    case entryInflatesTooFar(place: String, inflated: Int, limit: Int)
    /// A ZIP whose entries read so far unpack to more than ``ImportLimits/maxArchiveBytes`` together.
    case archiveTooLarge(place: String, limit: Int)
    /// A CSV record (the header included) of more fields than ``ImportLimits/maxColumns``.
    case tooManyColumns(place: String, line: Int, limit: Int)
    /// A ZIP that could not be read (`reason` says what is wrong with it).
    case damagedZIP(place: String, reason: String)
    /// The header is the format's, but lacks columns it needs.
    case missingColumns(place: String, format: ImportFormat, missing: [String])
    /// JSON that is not the shape its format has (`reason` says where the decoder stopped).
    case unreadableJSON(place: String, format: ImportFormat, reason: String)
    /// A peerd export of a later version than this peerd reads.
    case newerExport(place: String, version: Int)

    package var description: String {
        switch self {
        case .cannotRead(let path, let reason):
            "Cannot read \(path): \(reason). Check the path and that you may read the file."
        case .fileTooLarge(let path, let bytes, let limit):
            "\(path) is \(Self.size(bytes)); peerd imports files of at most \(Self.size(limit)). Exports of "
                + "Letterboxd, IMDb, TMDB and Trakt are a few MB: check that this is the export, or split it."
        case .unknownFormat(let place, let seen):
            "peerd can't tell what \(place) is (\(seen)). It imports: "
                + ImportFormat.allCases.map(\.description).joined(separator: "; ") + "."
        case .ambiguousLetterboxdCSV(let place):
            "\(place) has the header of Letterboxd's watchlist.csv and watched.csv (Date,Name,Year,Letterboxd URI), "
                + "and its name says neither. Rename it watchlist.csv or watched.csv and import it again."
        case .notUTF8(let place, let line, let byte):
            "\(place) is not UTF-8 text: line \(line) has a byte (0x\(Self.hex(byte))) that is not UTF-8. "
                + "Save it as UTF-8 (a spreadsheet calls it \"CSV UTF-8\") and import it again."
        case .brokenQuoting(let place, let line, let fields, let expected):
            "\(place), line \(line): the row has \(fields) field\(fields == 1 ? "" : "s") where the header has "
                + "\(expected). A quote that is opened and never closed (like \"Heat,1995) does this: fix the "
                + "quotes from that line on and import it again."
        case .unclosedQuote(let place, let line):
            "\(place), line \(line): a quote opened there is never closed, so the rest of the file would be "
                + "one field. Close the quote (\"Heat\",1995) and import it again."
        case .tooManyRows(let place, let rows, let limit):
            "\(place) has \(Self.grouped(rows)) rows; peerd imports at most \(Self.grouped(limit)) from one "
                + "file: split it into files of at most \(Self.grouped(limit)) rows and import each."
        case .tooManyEntries(let place, let limit):
            "\(place) has more than \(Self.grouped(limit)) entries, far more than an export has. Import the "
                + "CSV or JSON files from it one by one instead."
        case .entryTooLarge(let place, let declared, let limit):
            "\(place) says it unpacks to \(Self.size(Int(clamping: declared))); peerd reads at most "
                + "\(Self.size(limit)) of one entry. Is this an export? Unpack it and import its files one by one."
        case .entryInflatesTooFar(let place, let inflated, let limit):
            "\(place) unpacks to more than its header says: peerd stopped after \(Self.size(inflated)), past "
                + "its limit of \(Self.size(limit)) for one entry. The ZIP is damaged or hostile; export it again."
        case .archiveTooLarge(let place, let limit):
            "\(place) unpacks to more than \(Self.size(limit)) in the files peerd reads. Exports of Letterboxd "
                + "and Trakt are a few MB: check that this is the export, or download it again."
        case .tooManyColumns(let place, let line, let limit):
            "\(place), line \(line): the row has more than \(Self.grouped(limit)) fields. Exports have a few "
                + "dozen columns at most: check that this is the export, and that its separator is a comma."
        case .damagedZIP(let place, let reason):
            "\(place) is a ZIP that can't be read (\(reason)). Download the export again."
        case .missingColumns(let place, let format, let missing):
            "\(place) looks like a \(format), but has no \(missing.joined(separator: ", ")) column. "
                + "Import the file as the site exported it."
        case .unreadableJSON(let place, let format, let reason):
            "\(place) is not the JSON of a \(format) (\(reason)). Import the file as it was exported."
        case .newerExport(let place, let version):
            "\(place) is a peerd export of version \(version), made by a newer peerd than this one (which "
                + "reads version \(PeerdExport.currentVersion)). Upgrade peerd, or export with --format csv."
        }
    }

    /// `33554432` → `32.0 MiB`.
    static func size(_ bytes: Int) -> String {
        let mebibytes = Double(bytes) / Double(1 << 20)
        return "\((mebibytes * 10).rounded() / 10) MiB"
    }

    /// `100000` → `100,000`.
    static func grouped(_ number: Int) -> String {
        var digits = String(number.magnitude)
        var groups: [Substring] = []
        while digits.count > 3 {
            groups.insert(Substring(digits.suffix(3)), at: 0)
            digits.removeLast(3)
        }
        groups.insert(Substring(digits), at: 0)
        return (number < 0 ? "-" : "") + groups.joined(separator: ",")
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }
}
