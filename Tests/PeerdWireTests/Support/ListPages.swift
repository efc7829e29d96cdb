import PeerdModel
import PeerdWire
import PropertyBased

/// A `list` response's page as the daemon could answer it.
struct ListPage: Sendable, CustomStringConvertible {
    var movies: [MovieRecord]
    var total: Int
    var next: String?

    var response: ControlResponse { .list(movies: movies, total: total, next: next) }
    var description: String {
        String(decoding: MovieRecordJSON.listBody(movies: movies, total: total, next: next), as: UTF8.self)
    }
}

extension Gen where Value == ListPage {
    /// Pages of up to 12 rows whose JSON exercises every corner of the writer and the reader: names
    /// and titles drawn from quotes, backslashes, slashes, control characters, DEL, accents, CJK,
    /// emoji and combining marks; zero, huge and negative numbers; every optional field present or
    /// absent; up to six members' marks; averages of one decimal and any finite `Double`.
    static var listPage: Generator<ListPage, Shrink.None<ListPage>> {
        Generator { rng in
            var values = AwkwardRows(rng: rng)
            return values.page()
        }
    }
}

/// The random values the rows are made of.
private struct AwkwardRows {
    var rng: any SeededRandomNumberGenerator
    let peers = [
        PeerID("0123456789abcdef0123456789abcdef")!, PeerID("00000000")!,
        PeerID(String(repeating: "f", count: 64))!, PeerID("a11ce000000000000000000000000001")!,
        PeerID("b0b00000000000000000000000000002")!,
    ]
    let pool: [Unicode.Scalar] =
        ["\"", "\\", "/", " ", "a", "Z", "0", "\u{7F}", "é", "€", "千", "🎬", "\u{301}", "\u{2028}", "\u{FEFF}"]
        + (0..<0x20).map { Unicode.Scalar(UInt8($0)) }

    mutating func page() -> ListPage {
        let movies = (0..<Int.random(in: 0...12, using: &rng)).map { _ in movie() }
        return ListPage(movies: movies, total: integer(), next: optional { $0.text(0...60) })
    }

    mutating func movie() -> MovieRecord {
        let adders = Int.random(in: 0...3, using: &rng)
        return MovieRecord(
            movieId: integer(),
            title: optional { $0.text(0...40) },
            year: optional { $0.integer() },
            posterPath: optional { $0.text(0...30) },
            addedBy: (0..<adders).map { _ in text(0...20) },
            addedByPeers: (0..<adders).map { _ in peers.randomElement(using: &rng)! },
            addedAt: Int64(integer()),
            cursor: text(0...60),
            streamingOn: optional { $0.text(0...20) },
            marks: (0..<Int.random(in: 0...6, using: &rng)).map { _ in mark() },
            averageRating: optional { $0.average() }
        )
    }

    mutating func mark() -> MarkRecord {
        MarkRecord(
            peer: peers.randomElement(using: &rng)!,
            name: text(0...20),
            want: Bool.random(using: &rng),
            seen: Bool.random(using: &rng),
            seenOn: optional { $0.text(0...12) },
            rating: optional { $0.integer() },
            veto: Bool.random(using: &rng)
        )
    }

    mutating func text(_ lengths: ClosedRange<Int>) -> String {
        let count = Int.random(in: lengths, using: &rng)
        return String(String.UnicodeScalarView((0..<count).map { _ in pool.randomElement(using: &rng)! }))
    }

    /// Small, large, negative, or one of the ends.
    mutating func integer() -> Int {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: Int.random(in: 0...10, using: &rng)
        case 1: Int.random(in: 0...Int.max, using: &rng)
        case 2: Int.random(in: Int.min...0, using: &rng)
        default: [Int.min, Int.max, 0, -1].randomElement(using: &rng)!
        }
    }

    /// What the daemon writes (one decimal, 1 to 10), or any finite `Double`.
    mutating func average() -> Double {
        if Bool.random(using: &rng) { return Double(Int.random(in: 10...100, using: &rng)) / 10 }
        let bits = UInt64.random(in: .min ... .max, using: &rng)
        let value = Double(bitPattern: bits)
        return value.isFinite ? value : 0.5
    }

    mutating func optional<Value>(_ make: (inout Self) -> Value) -> Value? {
        Bool.random(using: &rng) ? make(&self) : nil
    }
}
