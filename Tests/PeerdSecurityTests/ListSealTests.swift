import PeerdModel
import PeerdSecurity
import Testing

/// proto/PEER.md "Lists": an operation of a list is signed under the list's domain, so it counts in
/// that list alone; a list's creation shows a nonce that with its origin makes the list's id.
@Suite struct ListSealTests {
    let identity = try! PeerIdentity.generate()

    func add(in list: ListID?, nonce: String? = nil) -> Operation {
        var op = Operation(
            id: OperationID(origin: identity.peer, seq: 1),
            lamport: 1,
            at: 1_763_700_000_000,
            by: "alice",
            kind: .add,
            movie: Movie(id: MovieID(603)!)
        )
        if let nonce {
            op.kind = .list
            op.movie = Operation.groupMovie
            op.payload = .list(ListDefinition(name: "friends", nonce: nonce))
        }
        return OperationSeal.seal(op, prev: nil, by: identity, in: list)
    }

    @Test func anOperationCountsInItsOwnListAlone() throws {
        let friends = ListID.fresh(by: identity.peer).id
        let kids = ListID.fresh(by: identity.peer).id
        let sealed = add(in: friends)
        var verifier = OperationVerifier(list: friends)
        try verifier.verify([sealed]) { _ in nil }
        for other in [kids, nil] as [ListID?] {
            var wrong = OperationVerifier(list: other)
            #expect(throws: OperationRejection(sealed.id, .badSignature)) { try wrong.verify([sealed]) { _ in nil } }
        }
        var group = OperationVerifier()
        #expect(throws: OperationRejection.self) { try group.verify([add(in: friends)]) { _ in nil } }
        try group.verify([add(in: nil)]) { _ in nil }
    }

    @Test func onlyItsCreatorsNonceMakesAList() throws {
        let (id, nonce) = ListID.fresh(by: identity.peer)
        #expect(ListID.made(by: identity.peer, nonce: nonce) == id)
        var verifier = OperationVerifier(list: id)
        try verifier.verify([add(in: id, nonce: nonce)]) { _ in nil }
        let (otherID, otherNonce) = ListID.fresh(by: identity.peer)
        var impostor = OperationVerifier(list: id)
        let claim = add(in: id, nonce: otherNonce)
        #expect(otherID != id)
        #expect(throws: OperationRejection(claim.id, .notThisList)) { try impostor.verify([claim]) { _ in nil } }
    }
}
