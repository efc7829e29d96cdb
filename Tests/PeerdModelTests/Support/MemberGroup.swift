import PeerdModel

/// A few members' replicas, each fed as the daemon feeds it (``MemberReceiver``), that make
/// operations through `draft` and `stage` and pass them on when a test says so.
struct MemberGroup {
    private var receivers: [PeerID: MemberReceiver] = [:]
    /// Wall-clock time of the next operation made: a minute later each time.
    private var clock = epoch

    init(_ keys: [PeerID]) {
        for key in keys { receivers[key] = MemberReceiver(id: key) }
    }

    subscript(key: PeerID) -> Replica { receivers[key]!.replica }

    /// `key` makes `request` and commits it.
    @discardableResult
    mutating func make(_ key: PeerID, _ request: Replica.LocalRequest) throws -> Operation {
        clock += 60_000
        let operation = try receivers[key]!.replica.stage(request, at: clock)
        receivers[key]!.commit([operation])
        return operation
    }

    /// `key` removes `peer`, naming how far it had seen `peer`'s chain.
    @discardableResult
    mutating func remove(_ peer: PeerID, by key: PeerID) throws -> Operation {
        try make(key, .member(self[key].removal(of: peer)))
    }

    /// `receiver` gets, in one batch, everything `sender` holds that it lacks.
    mutating func pull(into receiver: PeerID, from sender: PeerID) {
        let source = self[sender]
        let batch = source.vector.missing(from: self[receiver].vector).flatMap {
            source.operations(from: $0.origin, seqs: $0.seqs)
        }
        receivers[receiver]!.receive(batch)
    }

    /// `receiver` gets `operations` as one batch, whoever relays them.
    mutating func send(_ operations: [Operation], to receiver: PeerID) {
        receivers[receiver]!.receive(operations)
    }

    /// Every replica pulls from every other, a few rounds.
    mutating func settle() {
        let keys = receivers.keys.sorted()
        for _ in keys {
            for receiver in keys {
                for sender in keys where sender != receiver { pull(into: receiver, from: sender) }
            }
        }
    }
}
