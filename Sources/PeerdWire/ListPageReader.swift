import PeerdCodec
import PeerdModel

/// Reads a `list` response in the plain shape `MovieRecordJSON` and `JSONEncoder` write, by hand:
/// `JSONDecoder` spent 80% of `peerctl list`'s time on a list of 5,000 rows with five members'
/// marks (bench/README.md, issue 40).
///
/// Like ``OperationJSONReader``'s parser it takes only what it knows: one object of `movies`,
/// `next`, `total` and `type` `"list"`, rows and marks with exactly ``MovieRecord``'s and
/// ``MarkRecord``'s keys (any order, each once), no `null`, integers where they are integers, and
/// the wire's limits (``JSONScanner``'s strings, `maxArrayElements`). For anything else it returns
/// nil and `WireCoding` decodes the body with `JSONDecoder`, which stays the reference: so a body
/// this reader does not take is still read, or refused with the general path's error, and the
/// reader never takes what `JSONDecoder` would refuse (the tests compare the two). A field a later
/// version adds to a row makes its pages take the general path: slower, never wrong.
package struct ListPageReader {
    private var scanner: JSONScanner
    private let maxArrayElements: Int
    /// The few members a page names over and over: their ids then share one string storage.
    private var recent = RecentStrings(capacity: 16)

    private init(_ body: UnsafeRawBufferPointer, maxStringBytes: Int, maxArrayElements: Int) {
        scanner = JSONScanner(body, maxStringBytes: maxStringBytes)
        self.maxArrayElements = maxArrayElements
    }

    /// The `list` response `body` holds, or nil when it is not one in the plain shape.
    package static func read(
        _ body: UnsafeRawBufferPointer,
        maxStringBytes: Int,
        maxArrayElements: Int
    ) -> ControlResponse? {
        var reader = ListPageReader(body, maxStringBytes: maxStringBytes, maxArrayElements: maxArrayElements)
        var movies: [MovieRecord]?
        var next: String?
        var total: Int?
        var isList = false
        let complete = reader.object { reader, key in
            switch key {
            case .movies: return once(&movies, reader.array { $0.movie() })
            case .next: return once(&next, reader.scanner.string())
            case .total: return once(&total, reader.integer())
            case .type:
                guard !isList, reader.literal(#""list""#) else { return false }
                isList = true
                return true
            default: return false
            }
        }
        guard complete, isList, reader.scanner.isAtEnd(), let movies, let total else { return nil }
        return .list(movies: movies, total: total, next: next)
    }

    private mutating func movie() -> MovieRecord? {
        var movieId: Int?, year: Int?, addedAt: Int64?
        var title: String?, posterPath: String?, cursor: String?, streamingOn: String?
        var addedBy: [String]?, addedByPeers: [PeerID]?, marks: [MarkRecord]?
        var averageRating: Double?
        let complete = object { reader, key in
            switch key {
            case .addedAt: return once(&addedAt, reader.scanner.signed())
            case .addedBy: return once(&addedBy, reader.array { $0.name() })
            case .addedByPeers: return once(&addedByPeers, reader.array { $0.peerID() })
            case .averageRating: return once(&averageRating, reader.scanner.number())
            case .cursor: return once(&cursor, reader.scanner.string())
            case .marks: return once(&marks, reader.array { $0.mark() })
            case .movieId: return once(&movieId, reader.integer())
            case .posterPath: return once(&posterPath, reader.scanner.string())
            case .streamingOn: return once(&streamingOn, reader.scanner.string())
            case .title: return once(&title, reader.scanner.string())
            case .year: return once(&year, reader.integer())
            default: return false
            }
        }
        guard complete, let movieId, let addedBy, let addedByPeers, let addedAt, let cursor else { return nil }
        return MovieRecord(
            movieId: movieId,
            title: title,
            year: year,
            posterPath: posterPath,
            addedBy: addedBy,
            addedByPeers: addedByPeers,
            addedAt: addedAt,
            cursor: cursor,
            streamingOn: streamingOn,
            marks: marks ?? [],
            averageRating: averageRating
        )
    }

    private mutating func mark() -> MarkRecord? {
        var peer: PeerID?, name: String?, seenOn: String?
        var want: Bool?, seen: Bool?, veto: Bool?
        var rating: Int?
        let complete = object { reader, key in
            switch key {
            case .name: return once(&name, reader.name())
            case .peer: return once(&peer, reader.peerID())
            case .rating: return once(&rating, reader.integer())
            case .seen: return once(&seen, reader.scanner.boolean())
            case .seenOn: return once(&seenOn, reader.scanner.string())
            case .veto: return once(&veto, reader.scanner.boolean())
            case .want: return once(&want, reader.scanner.boolean())
            default: return false
            }
        }
        guard complete, let peer, let name, let want, let seen, let veto else { return nil }
        return MarkRecord(peer: peer, name: name, want: want, seen: seen, seenOn: seenOn, rating: rating, veto: veto)
    }

    /// A peer id; one equal to a recently read one shares its storage instead of allocating.
    private mutating func peerID() -> PeerID? {
        if let raw = scanner.plainString(), let peer = recent.origin(equalTo: raw, in: scanner.bytes) {
            scanner.index = raw.upperBound + 1
            return peer
        }
        guard let peer = scanner.string().flatMap(PeerID.init) else { return nil }
        recent.remember(peer)
        return peer
    }

    /// A member's name; like ids, a recently read one is shared.
    private mutating func name() -> String? {
        if let raw = scanner.plainString(), let name = recent.name(equalTo: raw, in: scanner.bytes) {
            scanner.index = raw.upperBound + 1
            return name
        }
        guard let name = scanner.string() else { return nil }
        recent.remember(name)
        return name
    }

    private mutating func integer() -> Int? {
        scanner.signed().flatMap { Int(exactly: $0) }
    }

    /// Consumes `word` (after whitespace) if it is next.
    private mutating func literal(_ word: StaticString) -> Bool {
        scanner.skipWhitespace()
        return scanner.literal(word)
    }

    /// `[ element, … ]`, at most `maxArrayElements` of them.
    private mutating func array<Element>(_ element: (inout ListPageReader) -> Element?) -> [Element]? {
        guard scanner.take(UInt8(ascii: "[")) else { return nil }
        var elements: [Element] = []
        if scanner.take(UInt8(ascii: "]")) { return elements }
        repeat {
            guard elements.count < maxArrayElements, let next = element(&self) else { return nil }
            elements.append(next)
        } while scanner.take(UInt8(ascii: ","))
        return scanner.take(UInt8(ascii: "]")) ? elements : nil
    }

    /// `{ "key": value, … }`, handing each key to `member`, which reads the value and returns false
    /// to give up. A key with an escape gives up; one that is not a ``Key`` is passed as nil.
    private mutating func object(_ member: (inout ListPageReader, Key?) -> Bool) -> Bool {
        guard scanner.take(UInt8(ascii: "{")) else { return false }
        if scanner.take(UInt8(ascii: "}")) { return true }
        repeat {
            guard let raw = scanner.plainString() else { return false }
            scanner.index = raw.upperBound + 1
            guard scanner.take(UInt8(ascii: ":")), member(&self, Key(scanner.bytes[raw])) else { return false }
        } while scanner.take(UInt8(ascii: ","))
        return scanner.take(UInt8(ascii: "}"))
    }
}

/// Stores `value` in a field seen for the first time; false for a repeated key or a bad value.
private func once<Value>(_ field: inout Value?, _ value: Value?) -> Bool {
    guard field == nil, let value else { return false }
    field = value
    return true
}
