extension MovieRecord {
    /// At least as many bytes as this record's JSON takes (``WireCoding/encode(_:)``): a page of
    /// rows stops short of the frame limit by this count, not by encoding every row twice.
    /// Each string counts as JSONEncoder writes it, escapes included; the rest (keys, numbers,
    /// punctuation, ids and cursors, which are plain ASCII of bounded length) as a generous constant.
    package var jsonSizeBound: Int {
        var size = 320 + JSONSize.of(title) + JSONSize.of(posterPath) + JSONSize.of(streamingOn)
        size += addedBy.reduce(0) { $0 + JSONSize.of($1) + 72 }
        size += marks.reduce(0) { $0 + JSONSize.of($1.name) + 180 }
        return size
    }
}

/// The length of a string as JSON text.
enum JSONSize {
    /// Quotes included; `"` and `\` take 2 bytes, other control characters up to 6, the rest their
    /// UTF-8. 0 for nil (the key is left out).
    static func of(_ text: String?) -> Int {
        guard let text else { return 0 }
        return text.utf8.reduce(2) { size, byte in
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): size + 2
            case 0..<0x20: size + 6
            default: size + 1
            }
        }
    }
}
