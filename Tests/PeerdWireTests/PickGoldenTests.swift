import Foundation
import PeerdModel
import PeerdWire
import Testing

/// Picks in proto/: the deck's order as PEER.md ("The deck") states it, redone here from its words,
/// is `PickDeck`'s; PEER.md's worked example is what the rule gives; the golden openings hold their
/// decks in that order; and the golden steps tally to what the golden `pickState` responses say.
@Suite("Picks: the deck rule of PEER.md and the golden picks")
struct PickGoldenTests {
    static let alice = PeerID("e47d41781ad71e3c12901eaf77360415")!
    static let bob = PeerID("fa4b944a1599866662902268ddf2aa18")!
    static let carol = PeerID("6597a6ab803c6c200541b8330503b059")!
    /// What the golden openings were made from: their candidates, most wanted first (make_golden.py).
    static let majorityCandidates = [27205, 550, 155, 680, 13, 862]
    static let rankedCandidates = [27205, 550, 13]

    /// The rule as PEER.md words it, written again here rather than taken from `PickDeck`.
    enum DocumentedRule {
        /// FNV-1a, 64 bits: from the offset basis, each byte XORed in, then times the FNV prime.
        static func seed(_ text: String) -> UInt64 {
            text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
        }

        /// SplitMix64's first `count` numbers from `seed`: the state grows, then is mixed.
        static func numbers(from seed: UInt64, count: Int) -> [UInt64] {
            var state = seed
            return (0..<count).map { _ in
                state &+= 0x9e37_79b9_7f4a_7c15
                var z = state
                z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
                z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
                return z ^ (z >> 31)
            }
        }

        /// One step of the shuffle: position `i`, the number drawn, `j`, and the deck after the swap.
        struct Step {
            let i: Int
            let number: UInt64
            let j: Int
            let deck: [Int]
        }

        static func steps(_ items: [Int], origin: PeerID, seq: UInt64) -> [Step] {
            var deck = items
            let positions = Array(stride(from: items.count - 1, to: 0, by: -1))
            let drawn = numbers(from: seed("\(origin.rawValue)/\(seq)"), count: positions.count)
            return zip(positions, drawn).map { i, number in
                let j = Int(number % UInt64(i + 1))
                deck.swapAt(i, j)
                return Step(i: i, number: number, j: j, deck: deck)
            }
        }

        static func shuffled(_ items: [Int], origin: PeerID, seq: UInt64) -> [Int] {
            Array((steps(items, origin: origin, seq: seq).last?.deck ?? items).prefix(200))
        }
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
    }

    @Test("PickDeck's order is the rule PEER.md states, for any opening id and deck size")
    func pickDeckFollowsTheDocumentedRule() {
        for origin in [Self.alice, Self.carol] {
            for seq in [1, 2, 5, 14, 1_000, UInt64.max] {
                for size in [0, 1, 2, 3, 6, 10, 31, 250] {
                    let items = Array(0..<size)
                    let expected = Array(DocumentedRule.shuffled(items, origin: origin, seq: seq).prefix(Pick.maxDeck))
                    let actual = PickDeck.shuffled(items, seed: OperationID(origin: origin, seq: seq))
                    #expect(Array(actual.prefix(Pick.maxDeck)) == expected, "\(origin.short)/\(seq), \(size) movies")
                }
            }
        }
    }

    @Test("PEER.md works the golden opening's shuffle through with the numbers the rule gives")
    func peerMDWorksTheExampleThrough() throws {
        let url = GoldenFrames.protoDirectory.appendingPathComponent("PEER.md")
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        let seed = DocumentedRule.seed("\(Self.alice.rawValue)/14")
        #expect(text.contains("`\(Self.alice.rawValue)/14`") && text.contains("`\(Self.hex(seed))`"))
        for step in DocumentedRule.steps(Self.majorityCandidates, origin: Self.alice, seq: 14) {
            let row =
                "| \(step.i) | `\(Self.hex(step.number))` | \(step.j) | "
                + step.deck.map(String.init).joined(separator: ", ") + " |"
            #expect(text.contains(row), "PEER.md lacks the row \(row)")
        }
    }

    @Test("the golden openings hold their candidates in the order their ids seed")
    func goldenDecksAreInTheirSeededOrder() throws {
        for (file, candidates) in [
            ("peer-ops-pick-open.bin", Self.majorityCandidates), ("peer-ops-pick-ranked.bin", Self.rankedCandidates),
        ] {
            let opening = try #require(try Self.operations(file).first { $0.pick?.action == .open })
            let deck = try #require(opening.pick?.deck).map(\.id.rawValue)
            #expect(deck == PickDeck.shuffled(candidates, seed: opening.id), "\(file)")
            #expect(deck == DocumentedRule.shuffled(candidates, origin: opening.id.origin, seq: opening.id.seq))
            #expect(opening.movie == PeerdModel.Operation.groupMovie && opening.invalidReason == nil)
        }
    }

    @Test("the golden majority pick tallies to what the golden pickState responses say")
    func goldenMajorityPickTallies() throws {
        let opening = try Self.operations("peer-ops-pick-open.bin")
        let steps = try Self.operations("peer-ops-pick-votes.bin")
        #expect(steps.allSatisfy { $0.kind == .pick && $0.verbatim == nil && $0.invalidReason == nil })
        // alice's view while voting: before Sam's vote (her seq 18), her close (19) and bob's second vote.
        let early = steps.filter {
            !($0.id.origin == Self.alice && $0.id.seq >= 18) && !($0.id.origin == Self.bob && $0.id.seq == 11)
        }
        let voting = try Self.record("control-response-pickState.bin")
        let pending = try #require(Self.picks(opening + early).pick(voting.pick)?.tally)
        #expect(pending.result == .pending && pending.isOpen == voting.open && voting.outcome == "voting")
        #expect(pending.next(for: .member(Self.alice))?.id.rawValue == voting.next?.movieId)
        Self.expectVoters(voting, in: pending)

        let chosen = try Self.record("control-response-pickState-chosen.bin")
        let tally = try #require(Self.picks(opening + steps.reversed()).pick(chosen.pick)?.tally)
        #expect(tally.isOpen == chosen.open && chosen.outcome == "chosen")
        guard case .chosen(let movie) = tally.result else {
            Issue.record("the golden majority pick has no result: \(tally.result)")
            return
        }
        #expect(movie.id.rawValue == chosen.result?.movieId)
        #expect(chosen.deck.map(\.movieId) == tally.deck.map(\.id.rawValue))
        #expect(chosen.deck.map(\.yeses) == tally.deck.map { Optional(tally.yeses(for: $0.id)) })
        Self.expectVoters(chosen, in: tally)
    }

    @Test("the golden ranked pick tallies to what its golden pickState says")
    func goldenRankedPickTallies() throws {
        let ranked = try Self.record("control-response-pickState-ranked.bin")
        let tally = try #require(Self.picks(try Self.operations("peer-ops-pick-ranked.bin")).pick(ranked.pick)?.tally)
        #expect(tally.mode == .ranked && tally.everyoneDone && tally.isOpen == ranked.open)
        #expect(tally.result == .chosen(Movie(id: MovieID(13)!, title: "Forrest Gump", year: 1994)))
        #expect(ranked.result?.movieId == 13 && ranked.outcome == "chosen")
        Self.expectVoters(ranked, in: tally)
    }

    /// The record's voters are the tally's, in its order, each as far as the tally says.
    static func expectVoters(_ record: PickRecord, in tally: PickTally) {
        #expect(record.voters.count == tally.voters.count)
        for (shown, voter) in zip(record.voters, tally.voters) {
            switch voter {
            case .member(let peer): #expect(shown.peer == peer && !shown.guest)
            case .guest(_, let name): #expect(shown.peer == nil && shown.guest && shown.name == name)
            }
            #expect(shown.voted == tally.progress(of: voter), "\(shown.name)")
        }
    }

    static func picks(_ operations: [PeerdModel.Operation]) -> Picks {
        var picks = Picks()
        for op in operations { picks.apply(op) }
        return picks
    }

    static func operations(_ name: String) throws -> [PeerdModel.Operation] {
        guard
            case .ops(let ops) = try WireCoding.decode(
                PeerMessage.self,
                from: try GoldenFrames.bytes(name).dropFirst(4)
            )
        else { throw GoldenError.unexpected(name) }
        return ops
    }

    static func record(_ name: String) throws -> PickRecord {
        let response = try WireCoding.decode(ControlResponse.self, from: try GoldenFrames.bytes(name).dropFirst(4))
        guard case .pickState(let record) = response else { throw GoldenError.unexpected(name) }
        return record
    }

    /// A golden frame that holds another message than the test reads it as.
    enum GoldenError: Error {
        case unexpected(String)
    }
}
