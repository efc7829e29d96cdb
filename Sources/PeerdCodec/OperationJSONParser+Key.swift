extension OperationJSONParser {
    /// The keys (and `op` values) the parser knows, matched from the bytes without making a `String`.
    /// Making a string of every key and comparing strings, with the generic UTF-8 validation of
    /// every string value, is most of why the parser took 12,900 instructions an operation before;
    /// about 6,100 now (callgrind).
    enum Key {
        case at, by, lamport, movie, op, origin, removes, seq, id, title, year, add, remove, sig, prev, key

        /// Nil for anything that is not exactly one of the known names.
        init?(_ bytes: Slice<UnsafeRawBufferPointer>) {
            let candidate: Key
            switch (bytes.count, bytes.first) {
            case (2, UInt8(ascii: "a")): candidate = .at
            case (2, UInt8(ascii: "b")): candidate = .by
            case (7, UInt8(ascii: "l")): candidate = .lamport
            case (5, UInt8(ascii: "m")): candidate = .movie
            case (2, UInt8(ascii: "o")): candidate = .op
            case (6, UInt8(ascii: "o")): candidate = .origin
            case (7, UInt8(ascii: "r")): candidate = .removes
            case (3, UInt8(ascii: "s")): candidate = bytes.dropFirst().first == UInt8(ascii: "e") ? .seq : .sig
            case (2, UInt8(ascii: "i")): candidate = .id
            case (5, UInt8(ascii: "t")): candidate = .title
            case (4, UInt8(ascii: "y")): candidate = .year
            case (3, UInt8(ascii: "a")): candidate = .add
            case (6, UInt8(ascii: "r")): candidate = .remove
            case (4, UInt8(ascii: "p")): candidate = .prev
            case (3, UInt8(ascii: "k")): candidate = .key
            default: return nil
            }
            let matches = candidate.name.withUTF8Buffer {
                bytesEqual(UnsafeRawBufferPointer($0), UnsafeRawBufferPointer(rebasing: bytes))
            }
            guard matches else { return nil }
            self = candidate
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
            }
        }
    }
}
