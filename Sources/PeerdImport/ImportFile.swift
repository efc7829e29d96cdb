package import PeerdWire

/// A file of another app's (or peerd's own) watch list, read into the rows `peerctl import` sends to
/// the daemon (docs/IMPORT.md). Pure apart from reading the one file: it resolves nothing and writes
/// nothing. Either the whole file is read, or an ``ImportError`` says why not and nothing is imported.
package struct ImportFile: Sendable {
    /// What the file is, told from its content.
    package let format: ImportFormat
    /// The rows, in the file's order; the parts of a ZIP in the order their format documents
    /// (``LetterboxdFormat/parts``, ``TraktFormat/Kind``). A movie may be in several rows (watched,
    /// then the diary, then rated; a rewatch): each row says what the file says at that point.
    package let rows: [ImportRow]
    /// Records that give no row: not movies, or with a value peerd can't use.
    package let skipped: [SkippedRow]
    /// SHA-256 of the file's bytes, in lowercase hex: the import's identity, so that a run killed
    /// halfway resumes the same file, and a file changed since is a new import.
    package let fingerprint: String

    /// Reads the file at `path`: its size first (refused past ``ImportLimits/maxFileBytes`` before
    /// it is read), then its bytes.
    package static func open(_ path: String, limits: ImportLimits = .standard) throws(ImportError) -> ImportFile {
        try read(FileBytes.contents(of: path, limit: limits.maxFileBytes), name: path, limits: limits)
    }

    /// Reads a file's `bytes`; `name` is its path as the user gave it, for messages and for telling
    /// Letterboxd's watchlist.csv from its watched.csv.
    package static func read(
        _ bytes: [UInt8],
        name: String,
        limits: ImportLimits = .standard
    ) throws(ImportError) -> ImportFile {
        guard bytes.count <= limits.maxFileBytes else {
            throw .fileTooLarge(path: name, bytes: bytes.count, limit: limits.maxFileBytes)
        }
        var tally = RowTally(maxRows: limits.maxRows, maxColumns: limits.maxColumns)
        let format: ImportFormat
        if ZipArchive.isZIP(bytes) {
            format = try readZIP(ZipArchive(bytes, place: name, limits: limits), into: &tally)
        } else {
            format = try readText(UTF8Text.decode(bytes, place: name), name: name, into: &tally)
        }
        try tally.checkLimit(place: name)
        return ImportFile(
            format: format,
            rows: tally.rows,
            skipped: tally.skipped,
            fingerprint: SHA256Digest.hash(bytes).map { byte in
                let hex = String(byte, radix: 16)
                return hex.count == 1 ? "0" + hex : hex
            }.joined()
        )
    }

    private static func readZIP(_ zip: ZipArchive, into tally: inout RowTally) throws(ImportError) -> ImportFormat {
        let letterboxd = LetterboxdFormat.paths(in: zip)
        if !letterboxd.isEmpty {
            try LetterboxdFormat.read(zip, paths: letterboxd, into: &tally)
            return .letterboxdZIP
        }
        if try TraktFormat.read(zip, into: &tally) { return .traktZIP }
        let seen =
            "a ZIP of \(zip.paths.count) files, with no watchlist.csv, watched.csv, ratings.csv or "
            + "diary.csv, and no JSON of Trakt's"
        throw .unknownFormat(place: zip.place, seen: seen)
    }

    private static func readText(_ text: String, name: String, into tally: inout RowTally) throws(ImportError)
        -> ImportFormat
    {
        switch text.unicodeScalars.first(where: { !$0.properties.isWhitespace }) {
        case nil:
            throw .unknownFormat(place: name, seen: "it is empty")
        case "[":
            TraktFormat.add(try TraktFormat.items(text, place: name, keep: tally.budget), file: nil, into: &tally)
            return .traktJSON
        case "{":
            guard PeerdJSONFormat.isExport(text) else {
                throw .unknownFormat(place: name, seen: "a JSON object, but not a peerd export")
            }
            try PeerdJSONFormat.read(text, place: name, into: &tally)
            return .peerdJSON
        default:
            let layout = try csvLayout(text, name: name, maxColumns: tally.maxColumns)
            try layout.read(text, place: name, file: nil, into: &tally)
            return layout.format
        }
    }

    /// The CSV format whose columns the header has, asked in this order: peerd's, IMDb's, TMDB's,
    /// Letterboxd's export, Letterboxd's import format (whose few columns the others have too).
    private static func csvLayout(_ text: String, name: String, maxColumns: Int) throws(ImportError) -> CSVLayout {
        guard let header = CSVTable.header(of: text, maxColumns: maxColumns) else {
            throw .unknownFormat(place: name, seen: "it is empty")
        }
        let fileName = name.split(separator: "/").last.map(String.init) ?? name
        if let layout = PeerdCSVFormat.layout(for: header) ?? IMDbFormat.layout(for: header)
            ?? TMDBFormat.layout(for: header)
        {
            return layout
        }
        if let layout = try LetterboxdFormat.layout(for: header, name: fileName, place: name) { return layout }
        if let layout = LetterboxdImportFormat.layout(for: header) { return layout }
        throw .unknownFormat(place: name, seen: "its first line is \"\(header.line)\"")
    }
}
