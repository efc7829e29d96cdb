/// Where the proofs (``OperationProof``) of one origin's operations are. A replica that a log backs
/// holds none of them: only where each operation's record starts in the log, 8 bytes, from which
/// an ``OperationArchive`` reads the proof again when a peer asks for the operation. A proof is
/// 97 bytes of signature, hash and flags that no read of the list needs; held in memory, they were
/// the largest single part of a replica of 100,000 movies and 200,000 marks (29 MB of its 124).
/// An operation no log holds (a replica in a test or a tool) keeps its proof here.
struct OriginProofs: Sendable {
    /// An offset no record has: the proof is in `held`.
    private static let heldHere = UInt64.max

    /// Per operation, in seq order: its record's offset in the log, or ``heldHere``.
    private var offsets: [UInt64] = []
    /// The proofs of the operations no log holds, by seq.
    private var held: [UInt64: OperationProof] = [:]

    var count: Int { offsets.count }

    init() {}

    /// The proofs of operations all in the log, at these offsets.
    init(logOffsets: [UInt64]) { offsets = logOffsets }

    /// Where each operation's record starts in the log; nil when a proof is held here.
    var logOffsets: [UInt64]? { held.isEmpty ? offsets : nil }

    /// Notes where the proof of the origin's next operation, seq `count + 1`, is: in the log's
    /// record at `offset`, or, without one, `proof` itself.
    mutating func append(_ proof: OperationProof, at offset: UInt64?) {
        guard let offset else {
            held[UInt64(offsets.count + 1)] = proof
            offsets.append(Self.heldHere)
            return
        }
        offsets.append(offset)
    }

    /// Where operation `seq` (1-based) is in the log, when a log holds it.
    func offset(seq: UInt64) -> UInt64? {
        let offset = offsets[Int(seq - 1)]
        return offset == Self.heldHere ? nil : offset
    }

    /// The proof of operation `seq`: held here, or read from `archive` (none when it can't be read:
    /// the archive says why, and a peer refuses the operation as unsigned rather than take it).
    func proof(seq: UInt64, from archive: (any OperationArchive)?) -> OperationProof {
        guard let offset = offset(seq: seq) else { return held[seq] ?? OperationProof() }
        return archive?.operation(at: offset)?.proof ?? OperationProof()
    }
}

/// Where a replica reads its operations back in full: the operation log (PeerdStore).
package protocol OperationArchive: Sendable {
    /// The operation whose record starts at `offset`, its proof included; nil if it can't be read.
    func operation(at offset: UInt64) -> Operation?
}
