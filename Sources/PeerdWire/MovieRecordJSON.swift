import PeerdCodec
import PeerdModel

/// The JSON of list rows and of a `list` response, written by hand: a page of 1,000 rows with five
/// members' marks is most of a megabyte, and `JSONEncoder` spent more than half the daemon's time
/// on such pages (bench/README.md, issue 40). ``MovieRecord``'s `Codable` conformance stays the
/// reference: this writer produces exactly the bytes `JSONEncoder` with `[.sortedKeys,
/// .withoutEscapingSlashes]` produces for it (the tests compare the two on generated rows), as
/// ``OperationJSON`` does for operations, and ``ListPageReader`` reads them back.
///
/// A row's keys, sorted: `addedAt, addedBy, addedByPeers, averageRating, cursor, marks, movieId,
/// posterPath, streamingOn, title, year`; a mark's: `name, peer, rating, seen, seenOn, veto, want`.
/// Optional values are left out when nil, `marks` when empty; `averageRating` is written as
/// `JSONEncoder` writes a `Double` (``CanonicalJSON/appendDouble(_:to:)``).
package enum MovieRecordJSON {
    /// The body of a `list` response: `{"movies":[…],"next":…,"total":…,"type":"list"}`.
    package static func listBody(movies: [MovieRecord], total: Int, next: String?) -> [UInt8] {
        var buffer = listHead(capacity: 64 + movies.count * 512)
        for (index, movie) in movies.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            append(movie, to: &buffer)
        }
        appendListTail(total: total, next: next, to: &buffer)
        return buffer
    }

    /// `{"movies":[`, the start of a `list` response, in a buffer with room for `capacity` bytes.
    package static func listHead(capacity: Int) -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(capacity)
        CanonicalJSON.append(#"{"movies":["#, to: &buffer)
        return buffer
    }

    /// `],"next":…,"total":…,"type":"list"}`, the end of a `list` response.
    package static func appendListTail(total: Int, next: String?, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "]"))
        if let next {
            CanonicalJSON.append(#","next":"#, to: &buffer)
            CanonicalJSON.appendString(next, to: &buffer)
        }
        CanonicalJSON.append(#","total":"#, to: &buffer)
        CanonicalJSON.appendInteger(total, to: &buffer)
        CanonicalJSON.append(#","type":"list"}"#, to: &buffer)
    }

    /// The JSON of `record`, appended to `buffer`.
    package static func append(_ record: MovieRecord, to buffer: inout [UInt8]) {
        CanonicalJSON.append(#"{"addedAt":"#, to: &buffer)
        CanonicalJSON.appendInteger(record.addedAt, to: &buffer)
        CanonicalJSON.append(#","addedBy":"#, to: &buffer)
        appendStrings(record.addedBy, to: &buffer)
        CanonicalJSON.append(#","addedByPeers":"#, to: &buffer)
        appendStrings(record.addedByPeers.lazy.map(\.rawValue), to: &buffer)
        if let rating = record.averageRating {
            CanonicalJSON.append(#","averageRating":"#, to: &buffer)
            CanonicalJSON.appendDouble(rating, to: &buffer)
        }
        CanonicalJSON.append(#","cursor":"#, to: &buffer)
        CanonicalJSON.appendString(record.cursor, to: &buffer)
        if !record.marks.isEmpty {
            CanonicalJSON.append(#","marks":["#, to: &buffer)
            for (index, mark) in record.marks.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                append(mark, to: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        }
        CanonicalJSON.append(#","movieId":"#, to: &buffer)
        CanonicalJSON.appendInteger(record.movieId, to: &buffer)
        appendOptional(#","posterPath":"#, record.posterPath, to: &buffer)
        appendOptional(#","streamingOn":"#, record.streamingOn, to: &buffer)
        appendOptional(#","title":"#, record.title, to: &buffer)
        if let year = record.year {
            CanonicalJSON.append(#","year":"#, to: &buffer)
            CanonicalJSON.appendInteger(year, to: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
    }

    /// `{"name":…,"peer":…,"rating":…,"seen":…,"seenOn":…,"veto":…,"want":…}`.
    private static func append(_ mark: MarkRecord, to buffer: inout [UInt8]) {
        CanonicalJSON.append(#"{"name":"#, to: &buffer)
        CanonicalJSON.appendString(mark.name, to: &buffer)
        CanonicalJSON.append(#","peer":"#, to: &buffer)
        CanonicalJSON.appendString(mark.peer.rawValue, to: &buffer)
        if let rating = mark.rating {
            CanonicalJSON.append(#","rating":"#, to: &buffer)
            CanonicalJSON.appendInteger(rating, to: &buffer)
        }
        CanonicalJSON.append(mark.seen ? #","seen":true"# : #","seen":false"#, to: &buffer)
        appendOptional(#","seenOn":"#, mark.seenOn, to: &buffer)
        CanonicalJSON.append(mark.veto ? #","veto":true"# : #","veto":false"#, to: &buffer)
        CanonicalJSON.append(mark.want ? #","want":true}"# : #","want":false}"#, to: &buffer)
    }

    private static func appendStrings(_ strings: some Sequence<String>, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "["))
        for (index, string) in strings.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            CanonicalJSON.appendString(string, to: &buffer)
        }
        buffer.append(UInt8(ascii: "]"))
    }

    /// `key` (with its comma and colon) and `value`, when there is one.
    private static func appendOptional(_ key: StaticString, _ value: String?, to buffer: inout [UInt8]) {
        guard let value else { return }
        CanonicalJSON.append(key, to: &buffer)
        CanonicalJSON.appendString(value, to: &buffer)
    }
}
