/// Writes CSV as ``CSVReader`` reads it (RFC 4180): commas between fields, `\n` after each record, a field in
/// quotes when it holds a comma, a quote (doubled) or a line break (or starts with a byte order mark, which a
/// reader would skip at the start of the text), and as it is otherwise.
package enum CSVWriter {
    /// The UTF-8 bytes of `records`, each ended by `\n`.
    package static func write(_ records: [[String]]) -> [UInt8] {
        var bytes: [UInt8] = []
        for record in records {
            for (index, field) in record.enumerated() {
                if index > 0 { bytes.append(.comma) }
                append(field, to: &bytes)
            }
            bytes.append(.lineFeed)
        }
        return bytes
    }

    private static func append(_ field: String, to bytes: inout [UInt8]) {
        let utf8 = field.utf8
        let needsQuotes =
            utf8.contains { $0 == .comma || $0 == .quote || $0 == .lineFeed || $0 == .carriageReturn }
            || utf8.starts(with: UTF8Text.byteOrderMark)
        guard needsQuotes else {
            bytes += utf8
            return
        }
        bytes.append(.quote)
        for byte in utf8 {
            if byte == .quote { bytes.append(.quote) }
            bytes.append(byte)
        }
        bytes.append(.quote)
    }
}
