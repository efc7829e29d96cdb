import Crypto
import PeerdModel
import Testing

@testable import PeerdSecurity

/// Operations `1...count` of `identity`'s origin, sealed as the replica service seals them.
func sealedChain(of identity: PeerIdentity, count: Int, from first: UInt64 = 1) -> [Operation] {
    var verifier = OperationVerifier()
    var ops: [Operation] = []
    for seq in UInt64(1)...UInt64(count) {
        let op = Operation(
            id: OperationID(origin: identity.peer, seq: seq),
            lamport: seq,
            at: 1_763_700_000_000 + Int64(seq),
            by: "alice",
            kind: .add,
            movie: Movie(id: MovieID(Int(seq))!, title: "Movie \(seq)", year: 1999)
        )
        let prev = seq == 1 ? nil : verifier.digest(of: OperationID(origin: identity.peer, seq: seq - 1)) { _ in nil }
        let sealed = OperationSeal.seal(op, prev: prev, by: identity)
        verifier.record(sealed)
        ops.append(sealed)
    }
    return ops
}

/// `op` signed by `key` as is, whatever its origin: what a forger can make.
func signed(_ op: Operation, by key: P256.Signing.PrivateKey) throws -> Operation {
    var op = op
    op.proof = OperationProof(sig: nil, prev: op.proof.prev.map(Array.init), key: op.proof.key.map(Array.init))
    let signature = try key.signature(for: OperationSeal.signingBytes(of: op))
    op.proof = op.proof.signed(LowS.normalized(Array(signature.rawRepresentation)))
    return op
}

func rejection(_ ops: [Operation], stored: [Operation] = []) -> OperationRejection.Reason? {
    var verifier = OperationVerifier()
    do {
        try verifier.verify(ops) { id in stored.first { $0.id == id } }
        return nil
    } catch {
        return error.reason
    }
}

@Suite struct OperationVerifierTests {
    let alice = try! PeerIdentity.generate(name: "alice")
    let mallory = try! PeerIdentity.generate(name: "mallory")

    @Test func aValidChainIsAccepted() throws {
        #expect(rejection(sealedChain(of: alice, count: 5)) == nil)
    }

    @Test func anOperationForgedInAnotherOriginsNameIsRejected() throws {
        let ops = sealedChain(of: alice, count: 3)
        var forged = Operation(
            id: OperationID(origin: alice.peer, seq: 4),
            lamport: 4,
            at: 0,
            by: "alice",
            kind: .add,
            movie: Movie(id: MovieID(666)!)
        )
        forged.proof = OperationProof(sig: nil, prev: Array(OperationSeal.digest(of: ops[2])), key: nil)
        forged = try signed(forged, by: mallory.privateKey)
        #expect(rejection(ops + [forged]) == .badSignature)
        // Relayed on its own, after the genuine ones were accepted earlier.
        #expect(rejection([forged], stored: ops) == .badSignature)
    }

    @Test func aFirstOperationCarryingAnotherPeersKeyIsRejected() throws {
        var first = sealedChain(of: alice, count: 1)[0]
        first.proof = OperationProof(sig: nil, prev: nil, key: mallory.publicKeyDER)
        first = try signed(first, by: mallory.privateKey)
        #expect(rejection([first]) == .keyNotOrigins)
    }

    @Test func aFirstOperationWithoutAKeyIsRejected() throws {
        var first = sealedChain(of: alice, count: 1)[0]
        first.proof = OperationProof(sig: nil, prev: nil, key: nil)
        first = try signed(first, by: alice.privateKey)
        #expect(rejection([first]) == .noKey)
    }

    @Test func aTamperedTitleIsRejected() {
        var last = sealedChain(of: alice, count: 3)
        last[2].movie.title = "Movie 3, director's cut"
        #expect(rejection(last) == .badSignature)
        var middle = sealedChain(of: alice, count: 3)
        middle[1].movie.title = "Movie 2, director's cut"
        #expect(rejection(middle) == .prevMismatch(middle[1].id))
    }

    @Test func aTamperedIntermediateSignatureIsRejected() {
        var ops = sealedChain(of: alice, count: 3)
        var sig = Array(ops[1].proof.sig!)
        sig[10] ^= 1
        ops[1].proof = ops[1].proof.signed(sig)
        #expect(rejection(ops) == .prevMismatch(ops[1].id))
    }

    @Test func aWrongPrevIsRejected() throws {
        var ops = sealedChain(of: alice, count: 3)
        ops[2].proof = OperationProof(sig: nil, prev: Array(OperationSeal.digest(of: ops[0])), key: nil)
        ops[2] = try signed(ops[2], by: alice.privateKey)
        #expect(rejection(ops) == .prevMismatch(ops[1].id))
    }

    @Test func anUnsignedOperationIsRejected() {
        var ops = sealedChain(of: alice, count: 2)
        ops[1].proof = OperationProof(sig: nil, prev: ops[1].proof.prev.map(Array.init), key: nil)
        #expect(rejection(ops) == .unsigned)
        #expect(rejection([Operation(ops[0], proof: OperationProof())]) == .unsigned)
    }

    @Test func aKeyOrPrevWhereTheyDoNotBelongIsRejected() throws {
        let ops = sealedChain(of: alice, count: 2)
        var second = ops[1]
        second.proof = OperationProof(sig: nil, prev: second.proof.prev.map(Array.init), key: alice.publicKeyDER)
        #expect(rejection([ops[0], try signed(second, by: alice.privateKey)]) == .keyAfterFirst)
        var noPrev = ops[1]
        noPrev.proof = OperationProof()
        #expect(rejection([ops[0], try signed(noPrev, by: alice.privateKey)]) == .noPrev)
    }

    @Test func theHighFormOfAValidSignatureIsRejected() {
        var ops = sealedChain(of: alice, count: 2)
        var sig = Array(ops[1].proof.sig!)
        var borrow = 0
        for index in (0..<32).reversed() {
            let difference = Int(LowS.order[index]) - Int(sig[32 + index]) - borrow
            sig[32 + index] = UInt8(truncatingIfNeeded: difference)
            borrow = difference < 0 ? 1 : 0
        }
        #expect(!LowS.isLow(sig))
        ops[1].proof = ops[1].proof.signed(sig)
        #expect(rejection(ops) == .badSignature)
    }

    @Test func aRunSplitAcrossTwoBatchesIsCheckedAgainstTheStoredOperationBeforeIt() throws {
        let ops = sealedChain(of: alice, count: 6)
        // A verifier that checked the first batch continues from its cache, with nothing stored.
        var warm = OperationVerifier()
        try warm.verify(Array(ops[0..<3])) { _ in nil }
        try warm.verify(Array(ops[3...])) { _ in nil }
        // A fresh one (after a restart) reads the stored seq 3, and seq 1 for the key.
        var cold = OperationVerifier()
        try cold.verify(Array(ops[3...])) { id in ops[Int(id.seq) - 1] }
        // A different stored seq 3 breaks the chain.
        var other = ops[2]
        other.lamport += 1
        #expect(rejection(Array(ops[3...]), stored: [ops[0], ops[1], other]) == .prevMismatch(ops[2].id))
    }

    @Test func onlyTheLastSignatureOfARunIsVerifiedTheChainCoversTheRest() throws {
        // A tampered signature on an operation nobody chains to yet is caught by the signature check.
        var ops = sealedChain(of: alice, count: 4)
        var sig = Array(ops[3].proof.sig!)
        sig[0] ^= 0x80
        ops[3].proof = ops[3].proof.signed(sig)
        #expect(rejection(ops) == .badSignature)
    }
}

extension Operation {
    /// `op` with another proof.
    init(_ op: Operation, proof: OperationProof) {
        self = op
        self.proof = proof
    }
}
