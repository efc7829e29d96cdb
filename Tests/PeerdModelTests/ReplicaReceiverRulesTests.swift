import Foundation
import PeerdCodec
import PeerdModel
import Testing

private typealias Operation = PeerdModel.Operation

/// The rules of proto/PEER.md a receiver checks on every operation, not only its sender: an
/// origin's lamports grow, `removes` is sorted, and a kind it does not know is kept but changes nothing.
@Suite struct ReplicaReceiverRulesTests {
    var alice = Replica(id: Peers.alice, name: "alice")

    @Test func aLamportNotAboveTheOriginsPreviousOneIsRefused() throws {
        let first = makeAdd(Peers.bob, 1, lamport: 5, movie: 1)
        let same = makeAdd(Peers.bob, 2, lamport: 5, movie: 2)
        #expect(
            throws: Replica.Rejection.invalid(same.id, reason: "lamport 5 is not above 5, its origin's previous one")
        ) {
            try alice.admit([first, same])
        }
    }

    @Test mutating func theRuleHoldsAcrossBatchesAgainstWhatIsHeldOrStaged() throws {
        let first = makeAdd(Peers.bob, 1, lamport: 5, movie: 1)
        alice.stage(admitted: try alice.admit([first]))
        let lower = makeAdd(Peers.bob, 2, lamport: 3, movie: 2)
        #expect(throws: Replica.Rejection.self) { try alice.admit([lower]) }
        _ = alice.commit([first])
        #expect(throws: Replica.Rejection.self) { try alice.admit([lower]) }
        let higher = makeAdd(Peers.bob, 2, lamport: 6, movie: 2)
        #expect(try alice.admit([higher]) == [higher])
    }

    @Test func removesOutOfOrderOrRepeatedAreRefused() {
        let adds = (1...2).map { makeAdd(Peers.bob, UInt64($0), lamport: UInt64($0), movie: 1) }
        let unsorted = makeRemove(Peers.bob, 3, lamport: 3, movie: 1, cancelling: [adds[1], adds[0]])
        let repeated = makeRemove(Peers.bob, 3, lamport: 3, movie: 1, cancelling: [adds[0], adds[0]])
        let sorted = makeRemove(Peers.bob, 3, lamport: 3, movie: 1, cancelling: adds)
        #expect(unsorted.invalidReason == "removes is sorted by (origin, seq), each add named once")
        #expect(repeated.invalidReason == unsorted.invalidReason)
        #expect(sorted.invalidReason == nil)
    }

    @Test mutating func anOperationOfAnUnknownKindIsHeldAndServedButChangesNothing() throws {
        let json =
            #"{"at":1,"by":"bob","lamport":2,"movie":{"id":603},"op":"rate","origin":"\#(Peers.bob)","seq":1,"stars":4}"#
        let rating = try JSONDecoder().decode(Operation.self, from: Data(json.utf8))
        let add = makeAdd(Peers.bob, 2, lamport: 3, movie: 550)
        let fresh = try alice.admit([rating, add])
        #expect(fresh == [rating, add])
        _ = alice.commit(fresh)
        #expect(alice.list.rows.map(\.movie.id) == [movieID(550)])
        #expect(alice.operations(from: Peers.bob, seqs: 1...2) == [rating, add])
        #expect(OperationJSON.encode(alice.operations(from: Peers.bob, seqs: 1...1)[0]) == Array(json.utf8))
    }
}
