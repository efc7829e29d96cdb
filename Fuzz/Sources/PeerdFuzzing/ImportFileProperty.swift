import PeerdImport

/// What must hold for any bytes `peerctl import` is given, read by `ImportFile.read(_:name:limits:)` with
/// the standard limits (a ZIP, CSV or JSON, told from the content).
///
/// Reading never traps, and gives either rows or an `ImportError` (the only error `read` can throw) whose
/// message names the file. Memory stays within the limits of `ImportLimits` (libFuzzer's `-rss_limit_mb`
/// and ASan catch it if not). For CSV, the records `CSVReader` reads from any UTF-8 text re-read the same
/// (fields and lines) from what `CSVWriter` writes of them; and a file read as CSV, written again with
/// `CSVWriter`, reads to the same format, rows and skipped rows, unless the rewrite starts as another
/// format does (see ``startsAsCSV(_:)``).
package enum ImportFileProperty {
    /// Letterboxd's watchlist.csv and watched.csv share a header: this name makes it watched.csv (a name
    /// that says neither is refused, which the fuzzer would find on every such header).
    static let name = "watched.csv"

    /// Traps if reading `input` breaks a property; returns normally for any bytes, readable or not.
    package static func check(_ input: UnsafeRawBufferPointer) {
        let bytes = Array(input)
        if let text = String(validating: bytes, as: UTF8.self) { checkRecordsRoundTrip(text) }
        let file: ImportFile
        do {
            file = try ImportFile.read(bytes, name: name)
        } catch {
            require(error.description.contains(name), "an error that doesn't name the file: \(error)")
            return
        }
        require(file.rows.count <= ImportLimits.standard.maxRows, "\(file.rows.count) rows, past the limit")
        require(file.fingerprint.count == 64, "a fingerprint of \(file.fingerprint.count) hex digits")
        if !notCSV.contains(file.format) { checkFileRoundTrip(file, bytes: bytes) }
    }

    static let notCSV: Set<ImportFormat> = [.letterboxdZIP, .traktJSON, .traktZIP, .peerdJSON]

    /// Every record of `text`, written by `CSVWriter` and read again, has the same fields and line.
    /// (Not the same `unclosedQuote`: the writer closes what the text left open.)
    static func checkRecordsRoundTrip(_ text: String) {
        let records = self.records(text)
        let rewritten = self.records(String(decoding: CSVWriter.write(records.map(\.fields)), as: UTF8.self))
        require(
            rewritten.map(\.fields) == records.map(\.fields),
            "CSVWriter's rewrite reads as \(rewritten.map(\.fields)), the text as \(records.map(\.fields))"
        )
        require(
            rewritten.map(\.line) == records.map(\.line),
            "CSVWriter's rewrite has records on lines \(rewritten.map(\.line)), the text on \(records.map(\.line))"
        )
    }

    /// A CSV file's records, written again by `CSVWriter`, read as the same format, rows and skipped rows.
    static func checkFileRoundTrip(_ file: ImportFile, bytes: [UInt8]) {
        guard let text = try? UTF8Text.decode(bytes, place: name) else {
            require(false, "read as \(file.format), but not UTF-8")
            return
        }
        let rewrite = CSVWriter.write(records(text).map(\.fields))
        guard startsAsCSV(rewrite) else { return }
        do {
            let again = try ImportFile.read(rewrite, name: name)
            require(again.format == file.format, "the rewrite reads as \(again.format), the file as \(file.format)")
            require(again.rows == file.rows, "the rewrite reads to rows \(again.rows), the file to \(file.rows)")
            require(again.skipped == file.skipped, "the rewrite skips \(again.skipped), the file \(file.skipped)")
        } catch {
            require(false, "the file read as \(file.format), its rewrite is refused: \(error)")
        }
    }

    /// Whether `bytes` are told as CSV, not as a ZIP (`PK`, then 3 4 or 5 6) or JSON (`[` or `{` first, after
    /// white space). A CSV whose first field starts so (quoted, or after a byte order mark, in the file)
    /// is written without the quotes or the mark, and so is read as another format: `CSVWriter` quotes
    /// only what the CSV reader needs quoted.
    static func startsAsCSV(_ bytes: [UInt8]) -> Bool {
        guard !bytes.starts(with: [0x50, 0x4B]) else { return false }
        let first = String(decoding: bytes, as: UTF8.self).unicodeScalars.first { !$0.properties.isWhitespace }
        return first != "[" && first != "{"
    }

    static func records(_ text: String) -> [CSVReader.Record] {
        var reader = CSVReader(text)
        var records: [CSVReader.Record] = []
        while let record = reader.next() { records.append(record) }
        return records
    }
}
