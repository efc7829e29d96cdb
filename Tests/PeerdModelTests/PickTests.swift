import PeerdModel
import Testing

/// Picks: their limits, the deck's seeded order, each mode's result, the close, and guests.
@Suite struct PickTests {
    static let deck = [603, 550, 13, 680].map { Movie(id: movieID($0)) }

    static func opening(_ mode: Pick.Mode, voters: [PeerID] = [Peers.alice, Peers.bob], lamport: UInt64 = 1)
        -> Operation
    {
        Operation(
            id: OperationID(origin: Peers.alice, seq: 1),
            lamport: lamport,
            at: epoch,
            by: "alice",
            kind: .pick,
            movie: Operation.groupMovie,
            payload: .pick(Pick.open(mode: mode, deck: deck, voters: voters, source: "list"))
        )
    }

    static let pickID = OperationID(origin: Peers.alice, seq: 1)

    static func step(
        _ pick: Pick,
        by origin: PeerID,
        seq: UInt64,
        lamport: UInt64,
        movie: Int = 1
    ) -> Operation {
        Operation(
            id: OperationID(origin: origin, seq: seq),
            lamport: lamport,
            at: epoch,
            by: Peers.name(of: origin),
            kind: .pick,
            movie: Movie(id: movieID(movie)),
            payload: .pick(pick)
        )
    }

    static func vote(_ yes: Bool, on movie: Int, by origin: PeerID, seq: UInt64, lamport: UInt64) -> Operation {
        step(Pick(action: .vote, pick: pickID, yes: yes), by: origin, seq: seq, lamport: lamport, movie: movie)
    }

    static func tally(_ ops: [Operation]) -> PickTally? {
        var picks = Picks()
        for op in ops { picks.apply(op) }
        return picks.pick(pickID)?.tally
    }

    @Test func theDeckIsTheSameSeededShuffleForEveryOpeningId() {
        let movies = (1...20).map { Movie(id: movieID($0)) }
        let once = PickDeck.shuffled(movies, seed: Self.pickID)
        #expect(once == PickDeck.shuffled(movies, seed: Self.pickID))
        #expect(once != movies && Set(once.map(\.id)) == Set(movies.map(\.id)))
        #expect(once != PickDeck.shuffled(movies, seed: OperationID(origin: Peers.alice, seq: 2)))
    }

    @Test func anOpeningIsCheckedAgainstItsLimits() {
        #expect(Self.opening(.majority).invalidReason == nil)
        let ranked = Pick.open(
            mode: .ranked,
            deck: (1...11).map { Movie(id: movieID($0)) },
            voters: [Peers.alice],
            source: "list"
        )
        #expect(ranked.invalidReason(movie: Operation.groupMovie) == "a ranked pick has 1 to 10 finalists")
        let vote = Pick(action: .vote, pick: Self.pickID)
        #expect(vote.invalidReason(movie: Movie(id: movieID(603))) == "a vote says yes or no")
        let guest = Pick(action: .vote, pick: Self.pickID, yes: true, guest: .init(id: "xyz", name: "Sam"))
        #expect(guest.invalidReason(movie: Movie(id: movieID(603))) == "a guest's id is 16 hex digits")
    }

    @Test func unanimousIsTheFirstMovieOfTheDeckEveryoneSaidYesTo() {
        let ops = [
            Self.opening(.unanimous),
            Self.vote(true, on: 680, by: Peers.alice, seq: 2, lamport: 2),
            Self.vote(true, on: 13, by: Peers.alice, seq: 3, lamport: 3),
            Self.vote(true, on: 680, by: Peers.bob, seq: 1, lamport: 4),
        ]
        #expect(Self.tally(Array(ops.prefix(3)))?.result == .pending)
        #expect(Self.tally(ops)?.result == .chosen(Movie(id: movieID(680))))
        let both = ops + [Self.vote(true, on: 13, by: Peers.bob, seq: 2, lamport: 5)]
        #expect(Self.tally(both)?.result == .chosen(Movie(id: movieID(13))), "13 comes before 680 in the deck")
        #expect(Self.tally(both.reversed())?.result == .chosen(Movie(id: movieID(13))), "the same in any order")
    }

    @Test func majorityWaitsForEveryoneOrTheCloseAndTheDeckBreaksTies() {
        var ops = [Self.opening(.majority)]
        var lamport: UInt64 = 1
        var seqs = [Peers.alice: UInt64(1), Peers.bob: 0]
        func vote(_ yes: Bool, _ movie: Int, _ who: PeerID) {
            lamport += 1
            seqs[who]! += 1
            ops.append(Self.vote(yes, on: movie, by: who, seq: seqs[who]!, lamport: lamport))
        }
        for movie in [603, 550, 13, 680] { vote(movie == 550 || movie == 680, movie, Peers.alice) }
        for movie in [603, 550, 13] { vote(movie == 680 || movie == 13, movie, Peers.bob) }
        #expect(Self.tally(ops)?.result == .pending, "bob has one movie left")
        vote(true, 680, Peers.bob)
        #expect(Self.tally(ops)?.result == .chosen(Movie(id: movieID(680))), "680 has two yeses")
        vote(false, 680, Peers.bob)
        #expect(
            Self.tally(ops)?.result == .chosen(Movie(id: movieID(550))),
            "a second vote replaces the first; 550 ties 13 and 680 and comes first"
        )
    }

    @Test func votesOrderedAfterTheCloseDoNotCount() {
        let ops = [
            Self.opening(.majority),
            Self.vote(true, on: 603, by: Peers.bob, seq: 1, lamport: 2),
            Self.step(Pick(action: .close, pick: Self.pickID), by: Peers.alice, seq: 2, lamport: 3),
            Self.vote(true, on: 550, by: Peers.bob, seq: 2, lamport: 4),
            Self.vote(true, on: 550, by: Peers.carol, seq: 1, lamport: 5),
        ]
        let tally = Self.tally(ops)
        #expect(tally?.isOpen == false)
        #expect(tally?.result == .chosen(Movie(id: movieID(603))))
        #expect(
            tally?.voters == [.member(Peers.alice), .member(Peers.bob)],
            "carol's late vote doesn't make her a voter"
        )
    }

    @Test func rankedIsAnInstantRunoff() {
        let a = movieID(603), b = movieID(550), c = movieID(13)
        #expect(
            InstantRunoff.winner(of: [[a, b], [b, a], [c, b]], among: [a, b, c]) == b,
            "c drops, its ballot goes to b"
        )
        #expect(InstantRunoff.winner(of: [[a], [b]], among: [a, b]) == a, "a tie drops the later in the deck")
        #expect(InstantRunoff.winner(of: [], among: [a, b]) == nil)
    }

    @Test func aGuestVoteCountsOnlyWhenTheOpenerSignedIt() {
        let guest = Pick.Guest(id: "0123456789abcdef", name: "Sam")
        let ops = [
            Self.opening(.unanimous, voters: [Peers.alice]),
            Self.step(
                Pick(action: .vote, pick: Self.pickID, yes: true, guest: guest),
                by: Peers.bob,
                seq: 1,
                lamport: 2,
                movie: 603
            ),
            Self.step(
                Pick(action: .vote, pick: Self.pickID, yes: true, guest: guest),
                by: Peers.alice,
                seq: 2,
                lamport: 3,
                movie: 550
            ),
        ]
        let tally = Self.tally(ops)
        #expect(tally?.voters == [.member(Peers.alice), .guest(id: guest.id, name: "Sam")])
        #expect(tally?.vote(of: .guest(id: guest.id, name: "Sam"), on: movieID(603)) == nil)
        #expect(tally?.vote(of: .guest(id: guest.id, name: "Sam"), on: movieID(550)) == true)
    }

    @Test func aStepThatCameBeforeItsOpeningCountsOnceTheOpeningComes() {
        var picks = Picks()
        picks.apply(Self.vote(true, on: 603, by: Peers.bob, seq: 1, lamport: 2))
        #expect(picks.pick(Self.pickID) == nil)
        picks.apply(Self.opening(.majority))
        #expect(picks.pick(Self.pickID)?.tally.vote(of: .member(Peers.bob), on: movieID(603)) == true)
    }
}
