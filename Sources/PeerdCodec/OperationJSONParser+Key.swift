extension OperationJSONParser {
    /// The keys (and `op` values) the parser knows, matched from the bytes without making a `String`.
    /// Making a string of every key and comparing strings, with the generic UTF-8 validation of
    /// every string value, is most of why the parser took 12,900 instructions an operation before;
    /// about 6,100 now (callgrind).
    enum Key {
        case at, by, lamport, movie, op, origin, removes, seq, id, title, year, add, remove, sig, prev, key
        case details, describe, settings
        case mark, watch, kind, set, on, rating, with, want, seen, veto

        /// Nil for anything that is not exactly one of the known names.
        init?(_ bytes: Slice<UnsafeRawBufferPointer>) {
            guard let first = bytes.first, let last = bytes.last,
                let candidate = Self.candidate(count: bytes.count, first: first, last: last)
            else { return nil }
            let matches = candidate.name.withUTF8Buffer {
                bytesEqual(UnsafeRawBufferPointer($0), UnsafeRawBufferPointer(rebasing: bytes))
            }
            guard matches else { return nil }
            self = candidate
        }

        /// The one key a name of this length could be, told by its first and last bytes (no two
        /// known names share all three).
        private static func candidate(count: Int, first: UInt8, last: UInt8) -> Key? {
            switch (count, Unicode.Scalar(first), Unicode.Scalar(last)) {
            case (2, "a", "t"): .at
            case (2, "b", "y"): .by
            case (7, "l", "t"): .lamport
            case (5, "m", "e"): .movie
            case (2, "o", "p"): .op
            case (6, "o", "n"): .origin
            case (7, "r", "s"): .removes
            case (3, "s", "q"): .seq
            case (3, "s", "g"): .sig
            case (2, "i", "d"): .id
            case (5, "t", "e"): .title
            case (4, "y", "r"): .year
            case (3, "a", "d"): .add
            case (6, "r", "e"): .remove
            case (4, "p", "v"): .prev
            case (3, "k", "y"): .key
            case (7, "d", "s"): .details
            case (8, "d", "e"): .describe
            case (8, "s", "s"): .settings
            default: markCandidate(count: count, first: first, last: last)
            }
        }

        /// The keys and values of marks and watches.
        private static func markCandidate(count: Int, first: UInt8, last: UInt8) -> Key? {
            switch (count, Unicode.Scalar(first), Unicode.Scalar(last)) {
            case (4, "m", "k"): .mark
            case (5, "w", "h"): .watch
            case (4, "k", "d"): .kind
            case (3, "s", "t"): .set
            case (2, "o", "n"): .on
            case (6, "r", "g"): .rating
            case (4, "w", "h"): .with
            case (4, "w", "t"): .want
            case (4, "s", "n"): .seen
            case (4, "v", "o"): .veto
            default: nil
            }
        }

        private var name: StaticString {
            switch self {
            case .at: "at"
            case .by: "by"
            case .lamport: "lamport"
            case .movie: "movie"
            case .op: "op"
            case .origin: "origin"
            case .removes: "removes"
            case .seq: "seq"
            case .id: "id"
            case .title: "title"
            case .year: "year"
            case .add: "add"
            case .remove: "remove"
            case .sig: "sig"
            case .prev: "prev"
            case .key: "key"
            case .details: "details"
            case .describe: "describe"
            case .settings: "settings"
            case .mark: "mark"
            case .watch: "watch"
            case .kind: "kind"
            case .set: "set"
            case .on: "on"
            case .rating: "rating"
            case .with: "with"
            case .want: "want"
            case .seen: "seen"
            case .veto: "veto"
            }
        }
    }
}
