import PeerdModel

/// Three replicas whose ids sort as their names do, so ties in Lamport time are easy to reason about.
enum Peers {
    static let alice = PeerID("a11ce000000000000000000000000001")!
    static let bob = PeerID("b0b00000000000000000000000000002")!
    static let carol = PeerID("ca401000000000000000000000000003")!
    static let all = [alice, bob, carol]

    static func name(of peer: PeerID) -> String {
        switch peer {
        case alice: "alice"
        case bob: "bob"
        case carol: "carol"
        default: "peer-\(peer.short)"
        }
    }
}

/// A wall-clock time in milliseconds, late 2025; only displayed, never used to order.
let epoch: Int64 = 1_763_700_000_000

func movieID(_ raw: Int) -> MovieID { MovieID(raw)! }

/// An add made by `origin` as its `seq`-th operation.
func makeAdd(
    _ origin: PeerID,
    _ seq: UInt64,
    lamport: UInt64,
    movie: Int,
    title: String? = nil,
    year: Int? = nil,
    by name: String? = nil
) -> Operation {
    Operation(
        id: OperationID(origin: origin, seq: seq),
        lamport: lamport,
        at: epoch + Int64(lamport) * 1000,
        by: name ?? Peers.name(of: origin),
        kind: .add,
        movie: Movie(id: movieID(movie), title: title, year: year)
    )
}

/// A removal made by `origin` as its `seq`-th operation, cancelling exactly the adds it is given.
func makeRemove(
    _ origin: PeerID,
    _ seq: UInt64,
    lamport: UInt64,
    movie: Int,
    cancelling adds: [Operation]
) -> Operation {
    Operation(
        id: OperationID(origin: origin, seq: seq),
        lamport: lamport,
        at: epoch + Int64(lamport) * 1000,
        by: Peers.name(of: origin),
        kind: .remove,
        movie: Movie(id: movieID(movie)),
        removes: adds.map(\.id)
    )
}

func adder(_ peer: PeerID) -> WatchListRow.Adder { WatchListRow.Adder(name: Peers.name(of: peer), peer: peer) }

extension WatchList {
    /// The list made by applying `operations` in the order given.
    init(applying operations: some Sequence<Operation>) {
        self.init()
        for operation in operations { apply(operation) }
    }
}

extension Replica {
    /// Drafts `request` and stages its operation unsealed, as the daemon stages it once signed.
    mutating func stage(_ request: LocalRequest, at now: Int64) throws -> Operation {
        guard case .operation(let operation) = try draft(request, at: now) else { throw NothingToStage() }
        stage(local: operation)
        return operation
    }
}

/// `draft` found the movie already listed by this replica.
struct NothingToStage: Error {}
