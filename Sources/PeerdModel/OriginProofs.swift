/// The proofs (``OperationProof``) of one origin's operations, held densely: every signature in one
/// array, every chain hash in another, the key once. The replica keeps operations without their
/// proof and puts it back when one is read out, so a held operation costs 97 bytes of proof in
/// shared arrays instead of an allocation of its own (one array of about 100 bytes plus its header
/// and malloc's rounding: 144 bytes, for each of 100,000 operations).
struct OriginProofs: Sendable {
    private static let hasSig: UInt8 = 1
    private static let hasPrev: UInt8 = 2

    /// 64 bytes per operation, zeros where it has no signature.
    private var sigs: [UInt8] = []
    /// 32 bytes per operation, zeros where it has no `prev`.
    private var prevs: [UInt8] = []
    /// One byte per operation: which of the two it has.
    private var flags: [UInt8] = []
    /// The key the origin's first operation carries.
    private var key: [UInt8]?

    var count: Int { flags.count }

    /// Keeps the proof of the origin's next operation, seq `count + 1`.
    mutating func append(_ proof: OperationProof) {
        var flag: UInt8 = 0
        if let sig = proof.sig {
            sigs.append(contentsOf: sig)
            flag |= Self.hasSig
        } else {
            sigs.append(contentsOf: repeatElement(0, count: OperationProof.signatureLength))
        }
        if let prev = proof.prev {
            prevs.append(contentsOf: prev)
            flag |= Self.hasPrev
        } else {
            prevs.append(contentsOf: repeatElement(0, count: OperationProof.digestLength))
        }
        flags.append(flag)
        if flags.count == 1, let first = proof.key { key = Array(first) }
    }

    /// The proof of operation `seq` (1-based), as it was kept.
    func proof(seq: UInt64) -> OperationProof {
        let index = Int(seq - 1)
        let flag = flags[index]
        let sig = index * OperationProof.signatureLength
        let prev = index * OperationProof.digestLength
        return OperationProof(
            sig: flag & Self.hasSig != 0 ? Array(sigs[sig..<sig + OperationProof.signatureLength]) : nil,
            prev: flag & Self.hasPrev != 0 ? Array(prevs[prev..<prev + OperationProof.digestLength]) : nil,
            key: seq == 1 ? key : nil
        )
    }
}
