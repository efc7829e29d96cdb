import PeerdModel
import Testing

/// Members' marks and watches: their limits, the newest-wins fold, names, filters and history.
@Suite struct MarksTests {
    static let matrix = Movie(id: movieID(603), title: "The Matrix", year: 1999)

    static func mark(
        _ mark: Mark,
        by origin: PeerID,
        seq: UInt64 = 1,
        lamport: UInt64,
        movie: Int = 603
    ) -> Operation {
        Operation(
            id: OperationID(origin: origin, seq: seq),
            lamport: lamport,
            at: epoch,
            by: Peers.name(of: origin),
            kind: .mark,
            movie: Movie(id: movieID(movie)),
            payload: .mark(mark)
        )
    }

    static func watch(_ members: [PeerID], by origin: PeerID, lamport: UInt64, on day: String? = nil) -> Operation {
        Operation(
            id: OperationID(origin: origin, seq: 1),
            lamport: lamport,
            at: epoch,
            by: Peers.name(of: origin),
            kind: .watch,
            movie: Movie(id: movieID(603)),
            payload: .watch(Watch(with: members, on: day))
        )
    }

    @Test(arguments: [
        (Mark(kind: .rating, rating: 11), "a rating is 1 to 10"),
        (Mark(kind: .rating), "a rating is 1 to 10"),
        (Mark(kind: .want, rating: 5), "only a set rating mark carries a rating"),
        (Mark(kind: .rating, set: false, rating: 5), "only a set rating mark carries a rating"),
        (Mark(kind: .want, on: "2026-11-20"), "only a set seen mark carries a day"),
        (Mark(kind: .seen, on: "2026-02-30"), "a day is YYYY-MM-DD"),
        (Mark(kind: .seen, on: "20-11-2026"), "a day is YYYY-MM-DD"),
    ])
    func aMarkOutOfItsLimitsIsRefused(mark: Mark, reason: String) {
        #expect(mark.invalidReason == reason)
        #expect(Self.mark(mark, by: Peers.alice, lamport: 1).invalidReason == reason)
    }

    @Test(arguments: ["2024-02-29", "1900-01-01", "2999-12-31", "2026-11-20"])
    func realDaysAreDays(day: String) {
        #expect(Day.isDay(day))
    }

    @Test(arguments: ["2023-02-29", "1899-12-31", "2026-13-01", "2026-11-31", "2026-11-2a", "2026/11/20"])
    func otherTextIsNotADay(text: String) {
        #expect(!Day.isDay(text))
    }

    @Test func aSeenDayAfterTomorrowIsRefusedTomorrowIsNot() {
        #expect(Day.futureReason("2026-12-05", today: "2026-12-05") == nil)
        #expect(Day.futureReason("2026-12-06", today: "2026-12-05") == nil)
        #expect(
            Day.futureReason("2026-12-07", today: "2026-12-05")
                == "2026-12-07 hasn't come yet (today is 2026-12-05); give the day you saw it, or leave the day out"
        )
        #expect(Day.futureReason("2030-01-01", today: "2026-12-05") != nil)
        #expect(Day.futureReason("2027-01-01", today: "2026-12-31") == nil)
        #expect(Day.futureReason("2027-01-02", today: "2026-12-31") != nil)
    }

    @Test func daysMoveAcrossMonthsYearsAndLeapDays() {
        #expect(Day.adding(1, to: "2024-02-28") == "2024-02-29")
        #expect(Day.adding(1, to: "2023-02-28") == "2023-03-01")
        #expect(Day.adding(-1, to: "2024-03-01") == "2024-02-29")
        #expect(Day.adding(1, to: "2026-12-31") == "2027-01-01")
        #expect(Day.adding(-1, to: "1900-01-01") == nil)
        #expect(Day.adding(1, to: "2026-13-01") == nil)
    }

    @Test func aLocalTimeIsWrittenWithItsFieldsPadded() {
        let morning = LocalTime(year: 2026, month: 12, day: 5, hour: 4, minute: 3, second: 9)
        #expect(morning.date == "2026-12-05" && morning.clock == "04:03:09" && morning.stamp == "2026-12-05 04:03")
        #expect(morning.shown(today: LocalTime(year: 2026, month: 12, day: 5, hour: 23)) == "04:03:09")
        #expect(morning.shown(today: LocalTime(year: 2026, month: 12, day: 6)) == "2026-12-05 04:03")
        #expect(LocalTime.twoDigits(0) == "00" && LocalTime.twoDigits(59) == "59" && LocalTime.twoDigits(123) == "123")
    }

    @Test func aWatchNamesOneToSixtyFourMembersSortedAndOnce() {
        #expect(Watch(with: [Peers.carol, Peers.alice, Peers.carol]).with == [Peers.alice, Peers.carol])
        #expect(Watch(with: []).invalidReason == "a watch names 1 to 64 members")
        #expect(Self.watch([Peers.bob], by: Peers.alice, lamport: 1).invalidReason == nil)
    }

    @Test func anOperationCarriesOnlyItsOwnKindOfPayload() {
        var add = Self.mark(Mark(kind: .want), by: Peers.alice, lamport: 1)
        add.kind = .add
        #expect(add.invalidReason == "only a mark operation carries a mark")
        var mark = Self.watch([Peers.bob], by: Peers.alice, lamport: 1)
        mark.kind = .mark
        #expect(mark.invalidReason == "a mark operation carries one mark")
    }

    @Test func theNewestMarkOfEachKindWinsWhateverOrderTheyArriveIn() {
        let ops = [
            Self.mark(Mark(kind: .rating, rating: 6), by: Peers.alice, seq: 1, lamport: 1),
            Self.mark(Mark(kind: .rating, rating: 9), by: Peers.alice, seq: 2, lamport: 5),
            Self.mark(Mark(kind: .want), by: Peers.alice, seq: 3, lamport: 6),
            Self.mark(Mark(kind: .want, set: false), by: Peers.alice, seq: 4, lamport: 7),
            Self.mark(Mark(kind: .veto), by: Peers.bob, seq: 1, lamport: 2),
        ]
        for order in [ops, ops.reversed(), [ops[3], ops[1], ops[4], ops[0], ops[2]]] {
            var marks = GroupMarks()
            for op in order { marks.apply(op) }
            let shown = marks.marks(of: movieID(603), names: MemberNames())
            #expect(shown.map(\.member) == [Peers.alice, Peers.bob])
            #expect(shown[0].rating == 9 && !shown[0].wants && !shown[0].vetoes)
            #expect(shown[1].vetoes && shown[1].rating == nil)
        }
    }

    @Test func aWatchIsASeenMarkOfEachMemberItNamesAtItsPlaceInTheOrder() {
        var marks = GroupMarks()
        marks.apply(Self.mark(Mark(kind: .seen, set: false), by: Peers.bob, lamport: 9))
        marks.apply(Self.watch([Peers.alice, Peers.bob], by: Peers.carol, lamport: 4, on: "2026-11-20"))
        let shown = marks.marks(of: movieID(603), names: MemberNames())
        #expect(shown.map(\.member) == [Peers.alice], "bob said later that he has not seen it")
        #expect(shown.first?.seenOn == "2026-11-20")
        #expect(marks.marks(of: movieID(550), names: MemberNames()).isEmpty)
    }

    @Test func aRatingIsAViewingUnlessALaterSeenMarkSaysOtherwise() {
        var marks = GroupMarks()
        marks.apply(Self.mark(Mark(kind: .rating, rating: 8), by: Peers.bob, seq: 1, lamport: 3))
        #expect(marks.marks(of: movieID(603), names: nil).first?.seen == true)
        #expect(marks.anyone(in: [Peers.bob], has: .seen, on: movieID(603)))
        #expect(!marks.anyone(in: [Peers.alice], has: .seen, on: movieID(603)))
        marks.apply(Self.mark(Mark(kind: .seen, set: false), by: Peers.bob, seq: 2, lamport: 4))
        #expect(marks.marks(of: movieID(603), names: nil).first?.seen == false, "bob said he hasn't seen it")
        #expect(!marks.anyone(in: [Peers.bob], has: .seen, on: movieID(603)))
        marks.apply(Self.mark(Mark(kind: .rating, rating: 9), by: Peers.bob, seq: 3, lamport: 5))
        #expect(marks.anyone(in: [], has: .seen, on: movieID(603)), "a newer rating is a newer viewing")
        marks.apply(Self.mark(Mark(kind: .rating, set: false), by: Peers.bob, seq: 4, lamport: 6))
        #expect(!marks.anyone(in: [], has: .seen, on: movieID(603)), "a cleared rating says nothing")
    }

    @Test func aRatingKeepsTheDayOfAnOlderSeenMark() {
        var marks = GroupMarks()
        marks.apply(Self.mark(Mark(kind: .seen, on: "2026-11-20"), by: Peers.bob, seq: 1, lamport: 1))
        marks.apply(Self.mark(Mark(kind: .rating, rating: 7), by: Peers.bob, seq: 2, lamport: 2))
        let bob = marks.marks(of: movieID(603), names: nil).first
        #expect(bob?.seen == true && bob?.seenOn == "2026-11-20" && bob?.rating == 7)
    }

    @Test func aMemberWithEveryMarkClearedIsNotShown() {
        var marks = GroupMarks()
        marks.apply(Self.mark(Mark(kind: .want), by: Peers.alice, seq: 1, lamport: 1))
        marks.apply(Self.mark(Mark(kind: .want, set: false), by: Peers.alice, seq: 2, lamport: 2))
        #expect(marks.marks(of: movieID(603), names: MemberNames()).isEmpty)
        #expect(marks.mark(.want, of: Peers.alice, on: movieID(603)) == Mark(kind: .want, set: false))
    }

    @Test func twoMembersOfOneNameAreToldApartByTheirIds() throws {
        var names = MemberNames()
        var bobAsAlice = Self.mark(Mark(kind: .want), by: Peers.bob, lamport: 2)
        bobAsAlice.by = "alice"
        names.note(Self.mark(Mark(kind: .want), by: Peers.alice, lamport: 1))
        #expect(names.name(of: Peers.alice) == "alice")
        names.note(bobAsAlice)
        #expect(names.name(of: Peers.alice) == "alice (a11ce000)")
        #expect(names.name(of: Peers.bob) == "alice (b0b00000)")
        #expect(names.name(of: Peers.carol) == "ca401000")
        guard case .failure(let refusal) = names.resolve("Alice", me: Peers.carol) else {
            Issue.record("a shared name resolved to one member")
            return
        }
        #expect(refusal.message.contains("2 members"))
        #expect(try names.resolve("b0b0", me: Peers.carol).get() == Peers.bob)
        #expect(try names.resolve("me", me: Peers.carol).get() == Peers.carol)
        #expect((try? names.resolve("dave", me: Peers.carol).get()) == nil)
    }

    @Test mutating func aRemovedMovieShowsItsMarksAgainWhenItIsAddedAgain() throws {
        var alice = Replica(id: Peers.alice, name: "alice")
        _ = alice.commit([try alice.stage(.add(Self.matrix), at: epoch)])
        _ = alice.commit([try alice.stage(.mark(Self.matrix, Mark(kind: .rating, rating: 8)), at: epoch)])
        _ = alice.commit([try alice.stage(.remove(Self.matrix.id), at: epoch)])
        #expect(alice.list.row(for: Self.matrix.id) == nil)
        _ = alice.commit([try alice.stage(.add(Self.matrix), at: epoch)])
        #expect(alice.list.row(for: Self.matrix.id)?.marks.first?.rating == 8)
    }

    @Test mutating func aMarkThatSaysWhatTheMembersMarkSaysDraftsNothing() throws {
        var alice = Replica(id: Peers.alice, name: "alice")
        #expect(
            try alice.draft(.mark(Self.matrix, Mark(kind: .veto, set: false)), at: epoch)
                == .alreadyMarked(Self.matrix.id)
        )
        _ = alice.commit([try alice.stage(.mark(Self.matrix, Mark(kind: .veto)), at: epoch)])
        #expect(try alice.draft(.mark(Self.matrix, Mark(kind: .veto)), at: epoch) == .alreadyMarked(Self.matrix.id))
        guard case .operation(let op) = try alice.draft(.mark(Self.matrix, Mark(kind: .veto, set: false)), at: epoch)
        else {
            Issue.record("clearing a set veto drafted nothing")
            return
        }
        #expect(op.kind == .mark && op.id.origin == Peers.alice && op.movie == Self.matrix)
    }

    @Test func listQueriesFilterByMembersMarksAndSort() {
        var list = WatchList()
        for (seq, movie) in [603, 550, 11, 13].enumerated() {
            list.apply(makeAdd(Peers.alice, UInt64(seq + 1), lamport: UInt64(seq + 1), movie: movie))
        }
        list.apply(Self.mark(Mark(kind: .seen), by: Peers.bob, seq: 1, lamport: 10, movie: 550))
        list.apply(Self.mark(Mark(kind: .want), by: Peers.bob, seq: 2, lamport: 11, movie: 11))
        list.apply(Self.mark(Mark(kind: .want), by: Peers.carol, seq: 1, lamport: 12, movie: 11))
        list.apply(Self.mark(Mark(kind: .want), by: Peers.carol, seq: 2, lamport: 13, movie: 13))
        list.apply(Self.mark(Mark(kind: .rating, rating: 9), by: Peers.carol, seq: 3, lamport: 14, movie: 13))
        list.apply(Self.mark(Mark(kind: .rating, rating: 4), by: Peers.bob, seq: 3, lamport: 15, movie: 603))
        func ids(_ query: ListQuery) -> [Int] { list.rows(matching: query).map(\.movie.id.rawValue) }
        #expect(ids(ListQuery()) == [603, 550, 11, 13])
        // A rating is a viewing: carol rated 13 and bob 603, so they have seen them.
        #expect(ids(ListQuery(unseenBy: [])) == [11])
        #expect(ids(ListQuery(unseenBy: [Peers.carol])) == [603, 550, 11])
        #expect(ids(ListQuery(unseenBy: [Peers.bob])) == [11, 13])
        #expect(ids(ListQuery(wantedBy: [Peers.carol])) == [11, 13])
        #expect(ids(ListQuery(sort: .wants)) == [11, 13, 603, 550])
        #expect(ids(ListQuery(sort: .rating)) == [13, 603, 550, 11])
        let first = list.page(matching: ListQuery(unseenBy: [Peers.carol]), after: nil, limit: 2)
        #expect(first.rows.map(\.movie.id.rawValue) == [603, 550] && first.total == 3)
        let second = list.page(matching: ListQuery(unseenBy: [Peers.carol]), after: first.rows.last?.key, limit: 2)
        #expect(second.rows.map(\.movie.id.rawValue) == [11] && second.total == 3)
    }

    @Test mutating func historyIsNewestFirstAndPagesWithoutRepeatsOrGaps() throws {
        var alice = Replica(id: Peers.alice, name: "alice")
        let bobOps = (1...3).map { makeAdd(Peers.bob, UInt64($0), lamport: UInt64($0 * 2), movie: 100 + $0) }
        _ = alice.commit(try alice.admit(bobOps))
        for movie in [603, 550, 11] { _ = alice.commit([try alice.stage(.add(Movie(id: movieID(movie))), at: epoch)]) }
        let all = alice.history(before: nil, limit: 100) { _ in true }
        #expect(all.map(\.orderKey) == all.map(\.orderKey).sorted(by: >))
        #expect(all.count == 6)
        var paged: [Operation] = []
        var cursor: OrderKey?
        repeat {
            let page = alice.history(before: cursor, limit: 4) { _ in true }
            paged += page
            cursor = page.count == 4 ? page.last?.orderKey : nil
        } while cursor != nil
        #expect(paged == all)
        #expect(alice.history(before: nil, limit: 10) { $0.movie == movieID(102) }.map(\.id.seq) == [2])
    }

    @Test func historySaysEachKindInWords() {
        func line(_ op: Operation) -> String {
            HistoryLine.text(
                of: op,
                name: Peers.name(of:),
                movie: "The Matrix (1999)",
                kindName: op.kind.name ?? "pick"
            )
        }
        #expect(
            line(Self.mark(Mark(kind: .rating, rating: 8), by: Peers.bob, lamport: 1))
                == "bob rated The Matrix (1999) 8/10"
        )
        #expect(
            line(Self.watch([Peers.alice, Peers.bob], by: Peers.alice, lamport: 1, on: "2026-11-20"))
                == "alice logged a watch of The Matrix (1999) on 2026-11-20 with alice, bob"
        )
        var unknown = Self.mark(Mark(kind: .want), by: Peers.carol, lamport: 1)
        unknown.kind = .unknown
        #expect(line(unknown) == "carol made an operation this peerd doesn't know (“pick”) about The Matrix (1999)")
        #expect(HistoryLine.title(nil, year: nil, id: movieID(603)) == "movie 603")
    }
}
