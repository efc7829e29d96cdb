import PeerdCodec
import PeerdModel

/// The canonical JSON of the operations committed last, kept so that a live push to every session
/// writes bytes encoded once at commit rather than each session fetching and encoding them again.
/// Bounded: a session that lags further (or a catch-up) gets older operations encoded on demand.
struct RecentOperations {
    /// About 350 KB of typical operations; a live push needs only the last few batches.
    static let capacity = 1_024

    private var byID: [OperationID: EncodedOperation] = [:]
    private var order: [OperationID] = []
    private var oldest = 0

    mutating func insert(_ operations: [EncodedOperation]) {
        for operation in operations {
            if order.count - oldest == Self.capacity {
                byID[order[oldest]] = nil
                oldest += 1
            }
            byID[operation.id] = operation
            order.append(operation.id)
        }
        if oldest >= Self.capacity {
            order.removeFirst(oldest)
            oldest = 0
        }
    }

    func encoded(_ id: OperationID) -> EncodedOperation? { byID[id] }
}
