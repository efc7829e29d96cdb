extension OperationJSONParser {
    /// The keys (and `op` values) the parser knows, matched from the bytes without making a `String`.
    /// Making a string of every key and comparing strings, with the generic UTF-8 validation of
    /// every string value, is most of why the parser took 12,900 instructions an operation before;
    /// about 6,100 now (callgrind).
    enum Key {
        case at, by, lamport, movie, op, origin, removes, seq, id, title, year, add, remove, sig, prev, key
        case details, describe, settings

        /// Nil for anything that is not exactly one of the known names.
        init?(_ bytes: Slice<UnsafeRawBufferPointer>) {
            guard
                let candidate = Self.candidate(count: bytes.count, first: bytes.first, second: bytes.dropFirst().first)
            else { return nil }
            let matches = candidate.name.withUTF8Buffer {
                bytesEqual(UnsafeRawBufferPointer($0), UnsafeRawBufferPointer(rebasing: bytes))
            }
            guard matches else { return nil }
            self = candidate
        }

        /// The one key a name of this length could be, told by its first bytes.
        private static func candidate(count: Int, first: UInt8?, second: UInt8?) -> Key? {
            switch (count, first) {
            case (2, UInt8(ascii: "a")): .at
            case (2, UInt8(ascii: "b")): .by
            case (7, UInt8(ascii: "l")): .lamport
            case (5, UInt8(ascii: "m")): .movie
            case (2, UInt8(ascii: "o")): .op
            case (6, UInt8(ascii: "o")): .origin
            case (7, UInt8(ascii: "r")): .removes
            case (3, UInt8(ascii: "s")): second == UInt8(ascii: "e") ? .seq : .sig
            case (2, UInt8(ascii: "i")): .id
            case (5, UInt8(ascii: "t")): .title
            case (4, UInt8(ascii: "y")): .year
            case (3, UInt8(ascii: "a")): .add
            case (6, UInt8(ascii: "r")): .remove
            case (4, UInt8(ascii: "p")): .prev
            case (3, UInt8(ascii: "k")): .key
            case (7, UInt8(ascii: "d")): .details
            case (8, UInt8(ascii: "d")): .describe
            case (8, UInt8(ascii: "s")): .settings
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
            }
        }
    }
}
