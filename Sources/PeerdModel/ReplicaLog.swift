/// Where each operation a replica holds is, by `(origin, seq)`, without holding any twice.
///
/// An add the list holds is already there in full, so its entry here is just its movie (8 bytes);
/// the list finds it by id. Every other operation (marks, describes, removals, and adds a removal
/// cancelled) is retired: held as its gist (``OperationGist``, 32 bytes), what the history's order
/// and filters need, and read back whole from the log when a read needs the rest. Holding every
/// operation in full here as well (104 bytes each, in arrays that grow by doubling) took a daemon
/// holding 100,000 movies from 54 MB to 74 MB (VmRSS); holding the retired ones whole took one with
/// 200,000 marks as well from 70 MB to 100 MB.
package struct ReplicaLog: Sendable {
    /// An add the list holds (by its movie), or an index into `retired`, in 8 bytes.
    package struct Entry: Sendable {
        /// The movie, or the flag and the index into `retired` (a snapshot holds it as it is).
        package let raw: UInt64
        private static let retiredFlag: UInt64 = 1 << 63

        /// Movie ids are positive `Int`s, so they never have the top bit set.
        static func listed(_ movie: MovieID) -> Entry { Entry(raw: UInt64(movie.rawValue)) }
        package init(raw: UInt64) { self.raw = raw }
        static func retired(_ index: Int) -> Entry { Entry(raw: retiredFlag | UInt64(index)) }

        var listedMovie: MovieID? { raw & Self.retiredFlag == 0 ? MovieID(Int(raw)) : nil }
        var retiredIndex: Int { Int(raw & ~Self.retiredFlag) }
    }

    /// One origin's operations: where each is (`entries[seq - 1]`), and the name on its last,
    /// which ``interned(_:)`` gives the next.
    struct Origin: Sendable {
        var entries: [Entry] = []
        var lastBy = ""

        mutating func append(_ entry: Entry, by: String) {
            entries.append(entry)
            lastBy = by
        }
    }

    private var byOrigin: [PeerID: Origin] = [:]
    /// The gist of every retired operation, by its index.
    private var retired: [OperationGist] = []
    /// The retired operations no log holds (a replica in a test or a tool), whole, by index.
    private var heldRetired: [Int: Operation] = [:]
    /// Where every operation's proof is, by origin: the operations here and in the list are held without theirs.
    private var proofs: [PeerID: OriginProofs] = [:]
    /// Where proofs kept in the log are read back.
    var archive: (any OperationArchive)?

    init() {}

    /// `op` with its origin (32 hex digits, a heap-allocated string) and, when equal, its adder's
    /// name replaced by the ones the origin's earlier operations hold, so every operation of an
    /// origin shares one string storage whichever path it came by: a live push decodes a fresh
    /// string for every operation, 64 bytes of heap each if kept.
    func interned(_ op: Operation) -> Operation {
        guard let index = byOrigin.index(forKey: op.id.origin) else { return op }
        var op = op
        op.id.origin = byOrigin.keys[index]
        let lastBy = byOrigin.values[index].lastBy
        if lastBy == op.by { op.by = lastBy }
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
        let entry = listed ? .listed(op.movie.id) : retiring(op)
        byOrigin[op.id.origin, default: Origin()].append(entry, by: op.by)
    }

    /// `add` has just left the list: keep it here.
    mutating func retire(_ add: Operation) {
        let entry = retiring(add)
        byOrigin[add.id.origin]!.entries[Int(add.id.seq - 1)] = entry
    }

    /// The entry of `op`, retired: its gist, and the operation itself when no log holds it.
    private mutating func retiring(_ op: Operation) -> Entry {
        if offset(of: op.id.origin, seq: op.id.seq) == nil { heldRetired[retired.count] = op }
        retired.append(OperationGist(op))
        return .retired(retired.count - 1)
    }

    /// Operations `(origin, seqs)`, each with its proof; empty unless this log holds all of them,
    /// and only those before the first that can't be read back from the log (which says why).
    func operations(from origin: PeerID, seqs: ClosedRange<UInt64>, in list: WatchList) -> [Operation] {
        guard let held = byOrigin[origin]?.entries, let proofs = proofs[origin], seqs.lowerBound >= 1,
            seqs.upperBound <= UInt64(held.count)
        else { return [] }
        var operations: [Operation] = []
        for seq in seqs {
            let entry = held[Int(seq - 1)], id = OperationID(origin: origin, seq: seq)
            // A retired operation read back from the log comes with its proof.
            if entry.listedMovie == nil, heldRetired[entry.retiredIndex] == nil {
                guard let op = readBack(id) else { break }
                operations.append(op)
                continue
            }
            guard var op = operation(entry, id: id, in: list) else { break }
            op.proof = proofs.proof(seq: seq, from: archive)
            operations.append(op)
        }
        return operations
    }

    /// Where operation `(origin, seq)`, held, is in the log, when a log holds it.
    func offset(of origin: PeerID, seq: UInt64) -> UInt64? { proofs[origin]?.offset(seq: seq) }

    /// How many operations of `origin` are held.
    func count(of origin: PeerID) -> UInt64 { UInt64(byOrigin[origin]?.entries.count ?? 0) }

    /// Every origin held.
    var origins: Dictionary<PeerID, Origin>.Keys { byOrigin.keys }

    /// The gist of every operation held, origin by origin.
    func forEachGist(in list: WatchList, _ body: (OperationID, OperationGist) -> Void) {
        for (origin, held) in byOrigin {
            for (index, entry) in held.entries.enumerated() {
                let id = OperationID(origin: origin, seq: UInt64(index + 1))
                body(id, gist(entry, id: id, in: list))
            }
        }
    }

    /// The gist of operation `(origin, seq)`, held.
    func gist(from origin: PeerID, seq: UInt64, in list: WatchList) -> OperationGist {
        let id = OperationID(origin: origin, seq: seq)
        return gist(byOrigin[origin]!.entries[Int(seq - 1)], id: id, in: list)
    }

    /// Operation `(origin, seq)`, held, without its proof; nil when it is retired and can't be read
    /// back from the log (the log says why).
    func operation(from origin: PeerID, seq: UInt64, in list: WatchList) -> Operation? {
        operation(byOrigin[origin]!.entries[Int(seq - 1)], id: OperationID(origin: origin, seq: seq), in: list)
    }

    private func gist(_ entry: Entry, id: OperationID, in list: WatchList) -> OperationGist {
        guard let movie = entry.listedMovie else { return retired[entry.retiredIndex] }
        return OperationGist(listedAdd(id, of: movie, in: list))
    }

    private func operation(_ entry: Entry, id: OperationID, in list: WatchList) -> Operation? {
        guard let movie = entry.listedMovie else {
            if let held = heldRetired[entry.retiredIndex] { return held }
            guard var op = readBack(id) else { return nil }
            op.proof = OperationProof()
            return op
        }
        return listedAdd(id, of: movie, in: list)
    }

    private func listedAdd(_ id: OperationID, of movie: MovieID, in list: WatchList) -> Operation {
        guard let add = list.add(id, of: movie) else { preconditionFailure("\(id) is listed but not in the list") }
        return add
    }

    /// Operation `id`, with its proof, from its record in the log; nil when it can't be read, or
    /// the record there is not `id`'s.
    private func readBack(_ id: OperationID) -> Operation? {
        guard let offset = offset(of: id.origin, seq: id.seq), let op = archive?.operation(at: offset),
            op.id == id
        else { return nil }
        return op
    }

    // MARK: In parts

    /// Where every operation is, as a snapshot holds it (``ReplicaParts``).
    package struct Parts: Sendable {
        package struct Origin: Sendable {
            package var peer: PeerID
            package var entries: [Entry]
            package var lastBy: String
            /// Where each operation's record starts in the log.
            package var offsets: [UInt64]

            package init(peer: PeerID, entries: [Entry], lastBy: String, offsets: [UInt64]) {
                self.peer = peer
                self.entries = entries
                self.lastBy = lastBy
                self.offsets = offsets
            }
        }

        package var origins: [Origin]
        package var retired: [OperationGist]

        package init(origins: [Origin], retired: [OperationGist]) {
            self.origins = origins
            self.retired = retired
        }
    }

    /// This log in parts; nil when it holds an operation or a proof no log holds.
    var parts: Parts? {
        guard heldRetired.isEmpty else { return nil }
        var origins: [Parts.Origin] = []
        for (peer, held) in byOrigin {
            guard let offsets = proofs[peer]?.logOffsets, offsets.count == held.entries.count else { return nil }
            origins.append(Parts.Origin(peer: peer, entries: held.entries, lastBy: held.lastBy, offsets: offsets))
        }
        return Parts(origins: origins, retired: retired)
    }

    /// The log `parts` were taken from; nil when they don't fit together (an entry names a
    /// retired operation that is not there, or an origin has more entries than offsets).
    init?(_ parts: Parts) {
        for origin in parts.origins {
            guard origin.offsets.count == origin.entries.count,
                origin.entries.allSatisfy({ $0.listedMovie != nil || $0.retiredIndex < parts.retired.count })
            else { return nil }
            byOrigin[origin.peer] = Origin(entries: origin.entries, lastBy: origin.lastBy)
            proofs[origin.peer] = OriginProofs(logOffsets: origin.offsets)
        }
        retired = parts.retired
    }

    /// Whether every operation this log says the list holds is there.
    func fits(_ list: WatchList) -> Bool {
        byOrigin.allSatisfy { peer, held in
            held.entries.enumerated().allSatisfy { index, entry in
                guard let movie = entry.listedMovie else { return true }
                return list.add(OperationID(origin: peer, seq: UInt64(index + 1)), of: movie) != nil
            }
        }
    }
}
