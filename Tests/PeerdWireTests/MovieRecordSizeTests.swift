import PeerdModel
import PeerdWire
import PropertyBased
import Testing

/// A list page is filled up to the frame limit by each record's counted size: it must be exactly
/// the bytes the record takes, or a page could pass the frame limit (or fill less of it).
@Suite struct MovieRecordSizeTests {
    @Test func theCountedSizeIsTheEncodedSize() async {
        await propertyCheck(count: 300, input: Gen.listPage) { page in
            for record in page.movies {
                #expect(record.jsonSize == WireCoding.encode(record).count)
            }
        }
    }

    @Test func aRowOfTheDaemonsIsCountedAsItIsWritten() {
        var marks = MemberMarks(member: PeerID(String(repeating: "f", count: 64))!, name: "zoë \"z\" \u{1}")
        marks.seen = true
        marks.seenOn = "2026-11-20"
        marks.rating = 10
        let row = WatchListRow(
            movie: Movie(id: MovieID(Int.max)!, title: "Amélie / \\ 🎬\t", year: -1),
            key: OrderKey(lamport: .max, origin: marks.member, seq: .max),
            addedBy: [WatchListRow.Adder(name: "a\nb", peer: marks.member)],
            addedAt: .min,
            marks: [marks]
        )
        let record = MovieRecord(row)
        #expect(record.jsonSize == WireCoding.encode(record).count)
    }
}
