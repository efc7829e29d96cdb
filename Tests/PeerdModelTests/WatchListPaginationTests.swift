import PeerdModel
import PropertyBased
import Testing

@Suite struct WatchListPaginationTests {
    /// Ten movies added by Alice at Lamport times 10, 20, … 100, leaving room before and between.
    let list = WatchList(
        applying: (1...10).map { makeAdd(Peers.alice, UInt64($0), lamport: UInt64($0 * 10), movie: $0) }
    )

    /// Pages from `cursor` until a page comes back short, as `peerctl list` does.
    func walk(_ list: WatchList, after cursor: OrderKey? = nil, limit: Int) -> [WatchListRow] {
        var seen: [WatchListRow] = []
        var cursor = cursor
        while true {
            let page = list.page(after: cursor, limit: limit)
            seen += page
            guard page.count == limit, let last = page.last else { return seen }
            cursor = last.key
        }
    }

    @Test(arguments: 1...11)
    func pagingWalksEveryRowExactlyOnce(limit: Int) {
        #expect(walk(list, limit: limit) == list.rows)
    }

    @Test func pagingWalksEveryRowOfAnyHistoryExactlyOnce() async {
        await propertyCheck(input: Gen.permutations(1), Gen.int(in: 1...6)) { deliveries, limit in
            let list = deliveries.list(0)
            #expect(walk(list, limit: limit) == list.rows)
        }
    }

    @Test func aPageHoldsAtMostLimitRowsStrictlyAfterTheCursor() {
        let rows = list.rows
        #expect(list.page(after: nil, limit: 3) == Array(rows[0..<3]))
        #expect(list.page(after: rows[2].key, limit: 3) == Array(rows[3..<6]))
        #expect(list.page(after: rows[8].key, limit: 3) == [rows[9]])
        #expect(list.page(after: rows[9].key, limit: 3).isEmpty)
        #expect(list.page(after: nil, limit: 0).isEmpty)
        #expect(list.page(after: rows[2].key, limit: -1).isEmpty, "a negative limit from a client must not trap")
        // A cursor between two rows (or before all of them) starts at the next row.
        #expect(list.page(after: OrderKey(lamport: 15, origin: Peers.carol, seq: 9), limit: 1) == [rows[1]])
        #expect(list.page(after: OrderKey(lamport: 0, origin: Peers.alice, seq: 0), limit: 1) == [rows[0]])
    }

    @Test func rowsInsertedAfterTheCursorDoNotDisturbPaging() {
        var list = list
        let firstPage = list.page(after: nil, limit: 4)
        let remaining = Array(list.rows.dropFirst(4))

        // New movies land between, and after, rows not yet paged.
        list.apply(makeAdd(Peers.bob, 1, lamport: 55, movie: 101))
        list.apply(makeAdd(Peers.bob, 2, lamport: 101, movie: 102))
        let rest = walk(list, after: firstPage.last!.key, limit: 4)

        #expect(rest.map(\.movie.id.rawValue) == [5, 101, 6, 7, 8, 9, 10, 102])
        #expect(remaining.allSatisfy(rest.contains))
        #expect(firstPage + rest == list.rows)
    }

    @Test func rowsInsertedBeforeTheCursorAreNeverRepeatedOrShownOutOfOrder() {
        var list = list
        let firstPage = list.page(after: nil, limit: 4)
        let remaining = Array(list.rows.dropFirst(4))

        // A peer that was offline sends old adds: they sort before the cursor.
        list.apply(makeAdd(Peers.carol, 1, lamport: 1, movie: 201))
        list.apply(makeAdd(Peers.carol, 2, lamport: 25, movie: 202))
        let rest = walk(list, after: firstPage.last!.key, limit: 4)

        #expect(rest == remaining)
        #expect(Set(rest.map(\.movie.id)).isDisjoint(with: firstPage.map(\.movie.id)))
    }

    /// The one way keyset paging can miss a row: the row itself moves. Rows are ordered by their
    /// earliest add, and an earlier concurrent add of the same movie can arrive at any time.
    @Test func aRowMovesBeforeTheCursorWhenAnEarlierAddOfItArrivesLate() {
        var list = list
        let firstPage = list.page(after: nil, limit: 4)
        list.apply(makeAdd(Peers.carol, 1, lamport: 5, movie: 7))

        let rest = walk(list, after: firstPage.last!.key, limit: 4)

        #expect(list.rows.first?.movie.id == movieID(7))
        #expect(rest.map(\.movie.id.rawValue) == [5, 6, 8, 9, 10])
    }

    @Test func aCursorWhoseRowWasRemovedStillContinuesAfterIt() {
        var list = list
        let firstPage = list.page(after: nil, limit: 3)
        let cursorRow = firstPage.last!
        let addOfCursorRow = makeAdd(Peers.alice, 3, lamport: 30, movie: 3)
        list.apply(makeRemove(Peers.bob, 1, lamport: 101, movie: 3, cancelling: [addOfCursorRow]))

        #expect(list.row(for: cursorRow.movie.id) == nil)
        #expect(walk(list, after: cursorRow.key, limit: 3).map(\.movie.id.rawValue) == Array(4...10))
    }
}

@Suite struct OrderKeyCursorTests {
    @Test(arguments: [
        OrderKey(lamport: 1, origin: Peers.alice, seq: 1),
        OrderKey(lamport: 0, origin: PeerID("01234567")!, seq: 0),
        OrderKey(lamport: .max, origin: PeerID(String(repeating: "f", count: 64))!, seq: .max),
    ])
    func aCursorRoundTrips(key: OrderKey) {
        #expect(OrderKey(cursor: key.cursor) == key)
        #expect(key.description == key.cursor)
    }

    @Test func anyKeyRoundTripsThroughItsCursor() async {
        let hexDigit = Gen.int(in: 0...15).map { Character(String($0, radix: 16)) }
        let origin = hexDigit.string(of: 8...64).map { PeerID($0)! }
        await propertyCheck(input: Gen.uint64(), origin, Gen.uint64()) { lamport, origin, seq in
            let key = OrderKey(lamport: lamport, origin: origin, seq: seq)
            #expect(OrderKey(cursor: key.cursor) == key)
        }
    }

    @Test func aCursorIsLamportDotOriginDotSeq() {
        let key = OrderKey(lamport: 42, origin: Peers.bob, seq: 7)
        #expect(key.cursor == "42.\(Peers.bob.rawValue).7")
    }

    @Test func aRowsCursorFindsTheFollowingRows() {
        let list = WatchList(applying: (1...3).map { makeAdd(Peers.alice, UInt64($0), lamport: UInt64($0), movie: $0) })
        let cursor = list.rows[0].key.cursor
        #expect(list.page(after: OrderKey(cursor: cursor), limit: 5) == Array(list.rows.dropFirst()))
    }

    @Test(arguments: [
        "",
        ".",
        "..",
        "1.a11ce000000000000000000000000001",
        "1.a11ce000000000000000000000000001.2.3",
        "1..2",
        "x.a11ce000000000000000000000000001.2",
        "1.a11ce000000000000000000000000001.y",
        "-1.a11ce000000000000000000000000001.2",
        "1.a11ce000000000000000000000000001.-2",
        "1.A11CE000000000000000000000000001.2",
        "1.not-hex-at-all.2",
        "1.abc.2",
        " 1.a11ce000000000000000000000000001.2",
        "1.a11ce000000000000000000000000001.2 ",
        "18446744073709551616.a11ce000000000000000000000000001.2",
        "1.a11ce000000000000000000000000001.18446744073709551616",
        "1,a11ce000000000000000000000000001,2",
    ])
    func garbageIsNotACursor(text: String) {
        #expect(OrderKey(cursor: text) == nil)
    }
}
