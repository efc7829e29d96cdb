import PeerdModel
import PeerdWire
import Testing

/// A list page is cut by each record's size bound: it must never be below the bytes the record
/// takes, or a page could pass the frame limit.
@Suite struct MovieRecordSizeTests {
    @Test func theBoundIsNeverBelowTheEncodedSize() {
        var rng = SystemRandomNumberGenerator()
        let pool: [Unicode.Scalar] = ["\"", "\\", "/", "a", "é", "🎬", "\u{1}", "\n", "\u{7F}", "千"]
        func text(_ count: Int) -> String {
            String(String.UnicodeScalarView((0..<count).map { _ in pool.randomElement(using: &rng)! }))
        }
        let longest = PeerID(String(repeating: "f", count: 64))!
        for _ in 0..<300 {
            let members = (0..<Int.random(in: 0...6, using: &rng)).map { index in
                var marks = MemberMarks(member: longest, name: text(Int.random(in: 1...75, using: &rng)))
                marks.wants = Bool.random(using: &rng)
                marks.seen = true
                marks.seenOn = "2026-11-20"
                marks.rating = 10
                marks.vetoes = index % 2 == 0
                return marks
            }
            let adders = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                WatchListRow.Adder(name: text(Int.random(in: 1...64, using: &rng)), peer: longest)
            }
            let row = WatchListRow(
                movie: Movie(id: MovieID(Int.max)!, title: text(Int.random(in: 0...300, using: &rng)), year: 9999),
                key: OrderKey(lamport: .max, origin: longest, seq: .max),
                addedBy: adders,
                addedAt: .min,
                marks: members
            )
            let record = MovieRecord(row)
            let encoded = WireCoding.encode(record).count
            #expect(encoded <= record.jsonSizeBound)
        }
    }
}
