import PeerdModel
import PeerdWire
import Testing

@testable import PeerdDaemon

/// A `list` page holds as many rows as one control frame does, counted at their exact size: the
/// response never passes the frame limit, and no more of it is left empty than one row and the
/// envelope.
@Suite("A page of list rows")
struct FramePageTests {
    private static let longest = PeerID(String(repeating: "f", count: 64))!

    /// A row whose JSON is as large as the wire lets it be: a 300-character title of control
    /// characters (6 bytes each written), names of 64 escaped characters, six members' marks.
    private static func row(_ n: Int) -> WatchListRow {
        let escaped = String(repeating: "\u{1}", count: 64)
        let marks = (0..<6).map { index in
            var marks = MemberMarks(member: PeerID(String(repeating: "\(index)", count: 64))!, name: escaped)
            marks.seen = true
            marks.seenOn = "2026-11-20"
            marks.rating = 10
            return marks
        }
        return WatchListRow(
            movie: Movie(id: MovieID(n)!, title: String(repeating: "\u{1}", count: 300), year: 9999),
            key: OrderKey(lamport: .max, origin: longest, seq: .max),
            addedBy: [WatchListRow.Adder(name: escaped, peer: longest)],
            addedAt: .min,
            marks: marks
        )
    }

    @Test func aPageOfTheLargestRowsFillsTheFrameWithoutPassingIt() {
        var page = FramePage(settings: nil)
        var n = 1
        while page.take(Self.row(n)) { n += 1 }
        let next = OrderKey(lamport: .max, origin: Self.longest, seq: .max).cursor
        let body = WireCoding.encode(ControlResponse.list(movies: page.records, total: .max, next: next))
        let rowSize = body.count / page.records.count
        #expect(body.count <= Frame.maxFrameLength)
        #expect(body.count > Frame.maxFrameLength - FramePage.envelope - rowSize)
    }
}
