import PeerdCodec
import PeerdModel

extension MovieRecord {
    /// Exactly how many bytes this record's JSON takes (``MovieRecordJSON``, the bytes `JSONEncoder`
    /// writes), counted without writing it: a page of rows is filled up to the frame limit by this
    /// count. It follows the writer field by field; the tests hold the two to the same length.
    package var jsonSize: Int {
        var size = length(of: #"{"addedAt":"#) + CanonicalJSON.integerLength(addedAt)
        size += length(of: #","addedBy":"#) + Self.arrayLength(addedBy.lazy.map(CanonicalJSON.stringLength))
        size += length(of: #","addedByPeers":"#)
        size += Self.arrayLength(addedByPeers.lazy.map { CanonicalJSON.stringLength($0.rawValue) })
        if let averageRating {
            size += length(of: #","averageRating":"#) + CanonicalJSON.text(of: averageRating).utf8.count
        }
        size += length(of: #","cursor":"#) + CanonicalJSON.stringLength(cursor)
        if !marks.isEmpty { size += length(of: #","marks":"#) + Self.arrayLength(marks.lazy.map(\.jsonSize)) }
        size += length(of: #","movieId":"#) + CanonicalJSON.integerLength(Int64(movieId))
        size += Self.optionalLength(#","posterPath":"#, posterPath)
        size += Self.optionalLength(#","streamingOn":"#, streamingOn)
        size += Self.optionalLength(#","title":"#, title)
        if let year { size += length(of: #","year":"#) + CanonicalJSON.integerLength(Int64(year)) }
        return size + 1
    }

    /// `[a,b,…]` of elements `lengths` long.
    static func arrayLength(_ lengths: some Collection<Int>) -> Int {
        2 + lengths.reduce(0, +) + max(lengths.count - 1, 0)
    }

    /// `key` and its string value, when there is one.
    static func optionalLength(_ key: StaticString, _ value: String?) -> Int {
        value.map { length(of: key) + CanonicalJSON.stringLength($0) } ?? 0
    }
}

extension MarkRecord {
    /// Exactly how many bytes this mark's JSON takes, as ``MovieRecord/jsonSize`` counts.
    var jsonSize: Int {
        var size = length(of: #"{"name":"#) + CanonicalJSON.stringLength(name)
        size += length(of: #","peer":"#) + CanonicalJSON.stringLength(peer.rawValue)
        if let rating { size += length(of: #","rating":"#) + CanonicalJSON.integerLength(Int64(rating)) }
        size += length(of: seen ? #","seen":true"# : #","seen":false"#)
        size += MovieRecord.optionalLength(#","seenOn":"#, seenOn)
        size += length(of: veto ? #","veto":true"# : #","veto":false"#)
        return size + length(of: want ? #","want":true}"# : #","want":false}"#)
    }
}

/// The bytes of a key or literal the writer appends as it is.
private func length(of text: StaticString) -> Int { text.utf8CodeUnitCount }
