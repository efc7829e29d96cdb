import PeerdCodec

extension ListPageReader {
    /// The keys of a `list` response, its rows and their marks, matched from the bytes without making
    /// a `String`.
    enum Key {
        case movies, next, total, type
        case addedAt, addedBy, addedByPeers, averageRating, cursor, marks, movieId, posterPath, streamingOn, title, year
        case name, peer, rating, seen, seenOn, veto, want

        /// Nil for anything that is not exactly one of the known names.
        init?(_ bytes: Slice<UnsafeRawBufferPointer>) {
            guard let first = bytes.first, let last = bytes.last,
                let candidate = Self.candidate(count: bytes.count, first: first, last: last),
                candidate.name.withUTF8Buffer({
                    bytesEqual(UnsafeRawBufferPointer($0), UnsafeRawBufferPointer(rebasing: bytes))
                })
            else { return nil }
            self = candidate
        }

        /// The one key a name of this length could be, told by its first and last bytes (no two
        /// known names share all three).
        private static func candidate(count: Int, first: UInt8, last: UInt8) -> Key? {
            switch (count, Unicode.Scalar(first), Unicode.Scalar(last)) {
            case (6, "m", "s"): .movies
            case (4, "n", "t"): .next
            case (5, "t", "l"): .total
            case (4, "t", "e"): .type
            case (7, "a", "t"): .addedAt
            case (7, "a", "y"): .addedBy
            case (12, "a", "s"): .addedByPeers
            case (13, "a", "g"): .averageRating
            case (6, "c", "r"): .cursor
            case (5, "m", "s"): .marks
            case (7, "m", "d"): .movieId
            case (10, "p", "h"): .posterPath
            case (11, "s", "n"): .streamingOn
            case (5, "t", "e"): .title
            case (4, "y", "r"): .year
            default: markCandidate(count: count, first: first, last: last)
            }
        }

        /// The keys of a row's marks.
        private static func markCandidate(count: Int, first: UInt8, last: UInt8) -> Key? {
            switch (count, Unicode.Scalar(first), Unicode.Scalar(last)) {
            case (4, "n", "e"): .name
            case (4, "p", "r"): .peer
            case (6, "r", "g"): .rating
            case (4, "s", "n"): .seen
            case (6, "s", "n"): .seenOn
            case (4, "v", "o"): .veto
            case (4, "w", "t"): .want
            default: nil
            }
        }

        private var name: StaticString {
            switch self {
            case .movies: "movies"
            case .next: "next"
            case .total: "total"
            case .type: "type"
            case .addedAt: "addedAt"
            case .addedBy: "addedBy"
            case .addedByPeers: "addedByPeers"
            case .averageRating: "averageRating"
            case .cursor: "cursor"
            case .marks: "marks"
            case .movieId: "movieId"
            case .posterPath: "posterPath"
            case .streamingOn: "streamingOn"
            case .title: "title"
            case .year: "year"
            case .name: "name"
            case .peer: "peer"
            case .rating: "rating"
            case .seen: "seen"
            case .seenOn: "seenOn"
            case .veto: "veto"
            case .want: "want"
            }
        }
    }
}
