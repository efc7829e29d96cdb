import PeerdCodec
import PeerdModel
import PeerdTestKit
import Testing

@testable import PeerdSecurity

/// A receiver verifies operations of a later version over their canonical bytes, unknown fields and
/// kinds included (proto/PEER.md, "Operations can grow").
@Suite struct LaterVersionOperationTests {
    let alice = try! PeerIdentity.generate(name: "alice")

    private func add(_ movie: Int, lamport: UInt64) -> Operation {
        Operation(
            id: OperationID(origin: alice.peer, seq: 1),
            lamport: lamport,
            at: 1_763_700_000_000,
            by: "alice",
            kind: .add,
            movie: Movie(id: MovieID(movie)!)
        )
    }

    @Test func anOperationSignedWithAFieldThisVersionDoesNotKnowVerifies() throws {
        var origin = LaterVersionOperation(identity: alice)
        let op = try origin.next(add(603, lamport: 1), extra: ["mood": .object(["stars": .integer(5)])])
        #expect(op.verbatim != nil)
        #expect(rejection([op]) == nil)
    }

    @Test func droppingTheUnknownFieldBreaksTheSignature() throws {
        var origin = LaterVersionOperation(identity: alice)
        var op = try origin.next(add(603, lamport: 1), extra: ["mood": .integer(5)])
        op.verbatim = nil
        #expect(rejection([op]) == .badSignature)
    }

    @Test func theChainRunsThroughAnOperationOfAnUnknownKind() throws {
        var origin = LaterVersionOperation(identity: alice)
        let first = try origin.next(add(603, lamport: 1))
        let rating = try origin.next(add(603, lamport: 2), extra: ["stars": .integer(4)], kind: "rate")
        let second = try origin.next(add(550, lamport: 3))
        #expect(rating.kind == .unknown)
        #expect(second.verbatim == nil)
        #expect(rejection([first, rating, second]) == nil)
        #expect(rejection([second], stored: [first, rating]) == nil)
        var tampered = rating
        tampered.verbatim = VerbatimJSON(
            rating.verbatim!.bytes.map { $0 == UInt8(ascii: "4") ? UInt8(ascii: "5") : $0 }
        )
        #expect(rejection([second], stored: [first, tampered]) == .prevMismatch(rating.id))
    }
}
