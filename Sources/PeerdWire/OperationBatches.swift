import PeerdModel

/// Splits operations into `ops` messages that respect both limits of proto/PEER.md: at most
/// `maxOperations` each, and an encoded size within the frame limit.
public enum OperationBatches {
    public static let maxOperations = 500

    /// Consecutive runs of `operations`, in order. Sizes are bounded from above without encoding
    /// (every escaped byte costs at most 6, every `removes` entry at most 110), so a batch can be
    /// smaller than it needed to be but never too large.
    public static func split(
        _ operations: some Collection<Operation>,
        maxOperations: Int = maxOperations,
        maxBytes: Int = Frame.maxFrameLength
    ) -> [ArraySlice<Operation>] {
        let all = Array(operations)
        var batches: [ArraySlice<Operation>] = []
        var start = 0
        var bytes = envelope
        for (index, op) in all.enumerated() {
            let size = worstCaseSize(op)
            if index > start, index - start >= maxOperations || bytes + size > maxBytes {
                batches.append(all[start..<index])
                start = index
                bytes = envelope
            }
            bytes += size
        }
        if start < all.count { batches.append(all[start...]) }
        return batches
    }

    /// `{"ops":[` … `],"type":"ops"}`.
    static let envelope = 32

    /// An upper bound on the bytes `op` takes in an `ops` message, separator included.
    static func worstCaseSize(_ op: Operation) -> Int {
        let text = op.by.utf8.count + (op.movie.title?.utf8.count ?? 0)
        return 280 + 2 * op.id.origin.rawValue.utf8.count + 6 * text + 110 * op.removes.count
    }
}
