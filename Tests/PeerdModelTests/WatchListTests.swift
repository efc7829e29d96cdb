import PeerdModel
import Testing

@Suite struct WatchListTests {
    @Test func aMovieAddedByTwoPeersIsOneRowListingBothAddersInAddOrder() {
        let bobAdds = makeAdd(Peers.bob, 1, lamport: 1, movie: 603)
        let aliceAdds = makeAdd(Peers.alice, 1, lamport: 2, movie: 603, title: "The Matrix", year: 1999)
        let carolAdds = makeAdd(Peers.carol, 1, lamport: 3, movie: 603, title: "Matrix", year: 2000)

        let list = WatchList(applying: [carolAdds, aliceAdds, bobAdds])

        #expect(list.count == 1)
        let row = list.rows[0]
        #expect(row.addedBy == [adder(Peers.bob), adder(Peers.alice), adder(Peers.carol)])
        #expect(row.movie == Movie(id: movieID(603), title: "The Matrix", year: 1999))
        #expect(row.key == bobAdds.orderKey)
        #expect(row.addedAt == bobAdds.at)
    }

    @Test func titleAndYearComeFromTheEarliestAddThatHasEach() {
        let list = WatchList(applying: [
            makeAdd(Peers.carol, 1, lamport: 3, movie: 550, title: "Fight Club (late)", year: 1998),
            makeAdd(Peers.bob, 1, lamport: 2, movie: 550, title: "Fight Club"),
            makeAdd(Peers.alice, 1, lamport: 1, movie: 550, year: 1999),
        ])
        #expect(list.row(for: movieID(550))?.movie == Movie(id: movieID(550), title: "Fight Club", year: 1999))
    }

    @Test func aPeerThatAddsAMovieTwiceIsListedOnce() {
        let list = WatchList(applying: [
            makeAdd(Peers.alice, 1, lamport: 1, movie: 603),
            makeAdd(Peers.bob, 1, lamport: 2, movie: 603),
            makeAdd(Peers.alice, 2, lamport: 3, movie: 603),
        ])
        #expect(list.rows.map(\.addedBy) == [[adder(Peers.alice), adder(Peers.bob)]])
    }

    @Test func rowsAreOrderedByLamportThenOriginThenSeq() {
        let list = WatchList(applying: [
            makeAdd(Peers.bob, 2, lamport: 5, movie: 13),
            makeAdd(Peers.bob, 1, lamport: 1, movie: 11),
            makeAdd(Peers.alice, 2, lamport: 5, movie: 680),
            makeAdd(Peers.alice, 1, lamport: 1, movie: 603),
            makeAdd(Peers.carol, 1, lamport: 2, movie: 550),
        ])
        #expect(list.rows.map(\.movie.id.rawValue) == [603, 11, 550, 680, 13])
    }

    @Test func aRemovalCancelsOnlyTheAddsItNames() {
        let aliceAdds = makeAdd(Peers.alice, 1, lamport: 1, movie: 603)
        let bobAdds = makeAdd(Peers.bob, 1, lamport: 1, movie: 603)
        // Alice removes the movie before she has heard of Bob's concurrent add.
        let aliceRemoves = makeRemove(Peers.alice, 2, lamport: 2, movie: 603, cancelling: [aliceAdds])

        var list = WatchList(applying: [aliceAdds, bobAdds, aliceRemoves])
        #expect(list.rows.map(\.addedBy) == [[adder(Peers.bob)]])
        #expect(list.row(for: movieID(603))?.key == bobAdds.orderKey)
        #expect(list.survivingAdds(of: movieID(603)) == [bobAdds.id])

        list.apply(makeRemove(Peers.bob, 2, lamport: 3, movie: 603, cancelling: [bobAdds]))
        #expect(list.count == 0)
        #expect(list.row(for: movieID(603)) == nil)
        #expect(list.survivingAdds(of: movieID(603)).isEmpty)
    }

    @Test func aLaterReAddShowsTheMovieAgain() {
        let add = makeAdd(Peers.alice, 1, lamport: 1, movie: 603, title: "The Matrix")
        let remove = makeRemove(Peers.bob, 1, lamport: 2, movie: 603, cancelling: [add])
        let reAdd = makeAdd(Peers.alice, 2, lamport: 3, movie: 603)

        let list = WatchList(applying: [add, remove, reAdd])

        #expect(list.rows.map(\.movie.id.rawValue) == [603])
        let row = list.rows[0]
        #expect(row.key == reAdd.orderKey)
        #expect(row.movie.title == nil, "the removed add's title went with it")
    }

    @Test func aRemovalThatArrivesBeforeTheAddItNamesStillRemovesIt() {
        // Carol hears Bob's stream (with his removal) before Alice's stream (with her add).
        let aliceAdds = makeAdd(Peers.alice, 1, lamport: 1, movie: 603)
        let bobRemoves = makeRemove(Peers.bob, 1, lamport: 2, movie: 603, cancelling: [aliceAdds])

        var carol = WatchList()
        #expect(carol.apply(bobRemoves) == nil)
        #expect(carol.apply(aliceAdds) == nil)
        #expect(carol.count == 0)
        #expect(carol == WatchList(applying: [aliceAdds, bobRemoves]))

        let reAdd = makeAdd(Peers.alice, 2, lamport: 3, movie: 603)
        carol.apply(reAdd)
        #expect(carol.rows.map(\.key) == [reAdd.orderKey])
    }

    @Test func applyReportsWhatChanged() {
        let aliceAdds = makeAdd(Peers.alice, 1, lamport: 1, movie: 603)
        let bobAdds = makeAdd(Peers.bob, 1, lamport: 2, movie: 603)
        let removeBoth = makeRemove(Peers.carol, 1, lamport: 3, movie: 603, cancelling: [aliceAdds, bobAdds])
        var list = WatchList()

        guard case .added(let added, by: aliceAdds) = list.apply(aliceAdds) else {
            Issue.record("first add should report .added")
            return
        }
        #expect(added.addedBy == [adder(Peers.alice)])

        guard case .updated(let updated, by: bobAdds) = list.apply(bobAdds) else {
            Issue.record("second adder should report .updated")
            return
        }
        #expect(updated.addedBy == [adder(Peers.alice), adder(Peers.bob)])

        #expect(list.apply(removeBoth) == .removed(Movie(id: movieID(603)), by: removeBoth))
        #expect(list.apply(removeBoth) == nil)
    }

    @Test func removingTheEarliestAddMovesTheRowToItsNextAdd() {
        let early = makeAdd(Peers.alice, 1, lamport: 1, movie: 603)
        let other = makeAdd(Peers.bob, 1, lamport: 2, movie: 11)
        let late = makeAdd(Peers.carol, 1, lamport: 3, movie: 603)
        let remove = makeRemove(Peers.alice, 2, lamport: 4, movie: 603, cancelling: [early])

        var list = WatchList(applying: [early, other, late])
        #expect(list.rows.map(\.movie.id.rawValue) == [603, 11])

        guard case .updated(let row, by: remove) = list.apply(remove) else {
            Issue.record("removing one of two adds should report .updated")
            return
        }
        #expect(row.key == late.orderKey)
        #expect(list.rows.map(\.movie.id.rawValue) == [11, 603])
    }
}
