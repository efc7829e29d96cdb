import PeerdModel
import PeerdWire
import Testing

/// The one follow loop `follow` and the page's event stream share: records in commit order, until
/// the reader goes away.
@Suite("ChangeFollow")
struct ChangeFollowTests {
    static let origin = PeerID("e47d41781ad71e3c12901eaf77360415")!

    static func added(_ movie: Int, seq: UInt64) -> WatchListChange {
        let op = Operation(
            id: OperationID(origin: origin, seq: seq),
            lamport: seq,
            at: 1_763_700_000_000,
            by: "alice",
            kind: .add,
            movie: Movie(id: MovieID(movie)!)
        )
        return .added(WatchListRow(adds: [op])!, by: op)
    }

    static func follow(_ batches: [[WatchListChange]]) -> ChangeFollow {
        let (changes, feed) = AsyncStream.makeStream(of: [WatchListChange].self)
        for batch in batches { feed.yield(batch) }
        feed.finish()
        return ChangeFollow(changes)
    }

    struct ReaderGone: Error {}

    @Test("each change of each batch is delivered as its record, in order")
    func deliversInOrder() async {
        let follow = Self.follow([[Self.added(603, seq: 1), Self.added(550, seq: 2)], [Self.added(680, seq: 3)]])
        var delivered: [ChangeRecord] = []
        await follow.forward { delivered.append($0) }
        #expect(delivered.map(\.movieId) == [603, 550, 680])
        #expect(delivered.allSatisfy { $0.change == .added && $0.by == "alice" })
    }

    @Test("a delivery that fails ends the follow: nothing more is delivered")
    func stopsWhenTheReaderGoes() async {
        let follow = Self.follow([[Self.added(603, seq: 1), Self.added(550, seq: 2)], [Self.added(680, seq: 3)]])
        var attempts: [Int] = []
        await follow.forward { record in
            attempts.append(record.movieId)
            throw ReaderGone()
        }
        #expect(attempts == [603])
    }
}
