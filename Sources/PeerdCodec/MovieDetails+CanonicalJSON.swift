import PeerdModel

/// A describe's `details` as JSON: ``MovieDetails``' one `Codable` form (its `Fields`) as a
/// ``JSONTree``, which writes itself in canonical JSON, byte for byte what `JSONEncoder` with sorted
/// keys and unescaped slashes writes (the tests compare them).
///
/// Unlike the rest of an operation, details are not written and parsed by hand: that would spell
/// their fields out twice more, in ``OperationJSON`` and ``OperationJSONParser``, and the next field
/// would be forgotten in one of them. Going through `Codable` (``JSONTreeEncoder``,
/// ``JSONTreeDecoder``) costs a describe about 45,000 instructions to write and 85,000 to read, where
/// the hand-written code took 11,000 and 20,000 (callgrind, the golden describe): tens of
/// microseconds, once per movie. `JSONEncoder` and `JSONDecoder` took twice that again. Adds and
/// removes, most of a log and of a catch-up, are written and read as before.
extension MovieDetails {
    /// The JSON of these details.
    var json: JSONTree {
        // Strings and integers always encode; a failure here is a programming error.
        try! JSONTreeEncoder().encode(self)
    }

    /// The details `value` holds, or nil when it does not hold them.
    static func decoding(_ value: JSONTree) -> MovieDetails? {
        try? JSONTreeDecoder().decode(MovieDetails.self, from: value)
    }
}
