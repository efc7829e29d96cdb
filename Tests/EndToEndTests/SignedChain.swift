import Foundation
import PeerdModel
import PeerdSecurity

/// A key that makes and signs its own chain of operations as a peerd would (proto/PEER.md, "Signed
/// operations"), with whatever lamport and `at` a test gives it: an insider's own operations, valid
/// but chosen to attack.
struct SignedChain {
    let name: String
    let identity: PeerIdentity
    /// Every operation made so far, in seq order.
    private(set) var made: [PeerdModel.Operation] = []

    init(_ name: String) throws {
        self.name = name
        identity = try PeerIdentity.generate(name: name)
    }

    var peer: PeerID { identity.peer }

    /// The chain's next operation: an add of `movie`.
    mutating func add(_ movie: Int, lamport: UInt64, at: Int64 = 1_763_700_000_000) -> PeerdModel.Operation {
        seal(kind: .add, movie: Movie(id: MovieID(movie)!, title: "Movie \(movie)"), lamport: lamport, at: at)
    }

    /// The chain's next operation: a change of the group's members.
    mutating func member(_ step: MemberStep, lamport: UInt64, at: Int64 = 1_763_700_000_000) -> PeerdModel.Operation {
        seal(kind: .member, movie: PeerdModel.Operation.groupMovie, lamport: lamport, at: at, payload: .member(step))
    }

    private mutating func seal(
        kind: PeerdModel.Operation.Kind,
        movie: Movie,
        lamport: UInt64,
        at: Int64,
        payload: PeerdModel.Operation.Payload? = nil
    ) -> PeerdModel.Operation {
        let unsigned = PeerdModel.Operation(
            id: OperationID(origin: identity.peer, seq: UInt64(made.count + 1)),
            lamport: lamport,
            at: at,
            by: name,
            kind: kind,
            movie: movie,
            payload: payload
        )
        let sealed = OperationSeal.seal(unsigned, prev: made.last.map { OperationSeal.digest(of: $0) }, by: identity)
        made.append(sealed)
        return sealed
    }

    /// A member operation in another origin's name (`id`), chained after that origin's operation
    /// `previous` as the real one would be, but signed by `forger`: the signature is all that gives
    /// it away.
    static func forged(
        _ step: MemberStep,
        as id: OperationID,
        by name: String,
        after previous: PeerdModel.Operation,
        signedBy forger: PeerIdentity
    ) -> PeerdModel.Operation {
        var forged = PeerdModel.Operation(
            id: id,
            lamport: previous.lamport + 100,
            at: 1_763_700_000_000,
            by: name,
            kind: .member,
            movie: PeerdModel.Operation.groupMovie,
            payload: .member(step),
            proof: OperationProof(sig: nil, prev: Array(OperationSeal.digest(of: previous)), key: nil)
        )
        forged.proof = forged.proof.signed(
            OperationSeal.signature(over: OperationSeal.signingBytes(of: forged), by: forger)
        )
        return forged
    }
}

extension PeerdModel.Operation {
    /// This operation with another member step, its proof kept: altered after it was signed.
    func withMember(_ step: MemberStep) -> PeerdModel.Operation {
        var altered = self
        altered.payload = .member(step)
        return altered
    }
}
