/// Where each operation a replica holds is, by `(origin, seq)`, without holding any twice.
///
/// An add the list holds is already there in full, so its entry here is just its movie (8 bytes);
/// the list finds it by id. Every other operation (removals, and adds a removal cancelled) is kept
/// here in `retired`. Holding every operation in full here as well (104 bytes each, in arrays that
/// grow by doubling) took a daemon holding 100,000 movies from 54 MB to 74 MB (VmRSS).
struct ReplicaLog: Sendable {
    /// An add the list holds (by its movie), or an index into `retired`, in 8 bytes.
    struct Entry: Sendable {
        private let raw: UInt64
        private static let retiredFlag: UInt64 = 1 << 63

        /// Movie ids are positive `Int`s, so they never have the top bit set.
        static func listed(_ movie: MovieID) -> Entry { Entry(raw: UInt64(movie.rawValue)) }
        static func retired(_ index: Int) -> Entry { Entry(raw: retiredFlag | UInt64(index)) }

        var listedMovie: MovieID? { raw & Self.retiredFlag == 0 ? MovieID(Int(raw)) : nil }
        var retiredIndex: Int { Int(raw & ~Self.retiredFlag) }
    }

    /// `entries[origin][seq - 1]` is where operation `(origin, seq)` is.
    private var entries: [PeerID: [Entry]] = [:]
    private var retired: [Operation] = []
    /// Where every operation's proof is, by origin: the operations here and in the list are held without theirs.
    private var proofs: [PeerID: OriginProofs] = [:]
    /// Where proofs kept in the log are read back.
    var archive: (any OperationArchive)?

    /// `op` with its origin (32 hex digits, a heap-allocated string) and, when equal, its adder's
    /// name replaced by the ones the origin's earlier operations hold, so every operation of an
    /// origin shares one string storage whichever path it came by: a live push decodes a fresh
    /// string for every operation, 64 bytes of heap each if kept.
    func interned(_ op: Operation, in list: WatchList) -> Operation {
        guard let index = entries.index(forKey: op.id.origin) else { return op }
        var op = op
        op.id.origin = entries.keys[index]
        if let last = entries.values[index].last {
            let previous = operation(last, id: OperationID(origin: op.id.origin, seq: op.id.seq - 1), in: list)
            if previous.by == op.by { op.by = previous.by }
        }
        return op
    }

    /// Notes where `op`'s proof is (the log's record at `offset`, or, with none, the proof itself)
    /// and returns `op` without it: what the list and this log hold.
    mutating func withoutProof(_ op: Operation, at offset: UInt64?) -> Operation {
        proofs[op.id.origin, default: OriginProofs()].append(op.proof, at: offset)
        var stripped = op
        stripped.proof = OperationProof()
        return stripped
    }

    /// Records `op`, the next of its origin (held without its proof); `listed` says whether the list holds it.
    mutating func append(_ op: Operation, listed: Bool) {
        let entry: Entry
        if listed {
            entry = .listed(op.movie.id)
        } else {
            entry = .retired(retired.count)
            retired.append(op)
        }
        entries[op.id.origin, default: []].append(entry)
    }

    /// `add` has just left the list: keep it here.
    mutating func retire(_ add: Operation) {
        entries[add.id.origin]![Int(add.id.seq - 1)] = .retired(retired.count)
        retired.append(add)
    }

    /// Operations `(origin, seqs)`, each with its proof; empty unless this log holds all of them.
    func operations(from origin: PeerID, seqs: ClosedRange<UInt64>, in list: WatchList) -> [Operation] {
        guard let held = entries[origin], let proofs = proofs[origin], seqs.lowerBound >= 1,
            seqs.upperBound <= UInt64(held.count)
        else { return [] }
        return seqs.map { seq in
            var op = operation(held[Int(seq - 1)], id: OperationID(origin: origin, seq: seq), in: list)
            op.proof = proofs.proof(seq: seq, from: archive)
            return op
        }
    }

    /// Where operation `(origin, seq)`, held, is in the log, when a log holds it.
    func offset(of origin: PeerID, seq: UInt64) -> UInt64? { proofs[origin]?.offset(seq: seq) }

    /// How many operations of `origin` are held.
    func count(of origin: PeerID) -> UInt64 { UInt64(entries[origin]?.count ?? 0) }

    /// Every origin held.
    var origins: Dictionary<PeerID, [Entry]>.Keys { entries.keys }

    /// Every operation held, without its proof, origin by origin.
    func forEach(in list: WatchList, _ body: (Operation) -> Void) {
        for (origin, held) in entries {
            for (index, entry) in held.enumerated() {
                body(operation(entry, id: OperationID(origin: origin, seq: UInt64(index + 1)), in: list))
            }
        }
    }

    /// Operation `(origin, seq)`, held, without its proof.
    func operation(from origin: PeerID, seq: UInt64, in list: WatchList) -> Operation {
        operation(entries[origin]![Int(seq - 1)], id: OperationID(origin: origin, seq: seq), in: list)
    }

    private func operation(_ entry: Entry, id: OperationID, in list: WatchList) -> Operation {
        guard let movie = entry.listedMovie else { return retired[entry.retiredIndex] }
        guard let add = list.add(id, of: movie) else { preconditionFailure("\(id) is listed but not in the list") }
        return add
    }
}
