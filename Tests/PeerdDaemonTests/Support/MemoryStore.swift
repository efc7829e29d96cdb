import PeerdCodec
import PeerdStore
import Synchronization
import SystemPackage

@testable import PeerdDaemon

/// An `OperationStore` in memory that can be told to fail.
final class MemoryStore: OperationStore {
    let written = Mutex<[[EncodedOperation]]>([])
    let failing = Mutex(false)

    /// Nil: the replica keeps the proofs of what it commits here.
    func append(_ operations: [EncodedOperation]) async throws -> [UInt64]? {
        if failing.withLock({ $0 }) { throw StoreError.writeFailed(FilePath("/memory"), .noSpace) }
        written.withLock { $0.append(operations) }
        return nil
    }

    var operations: [EncodedOperation] { written.withLock { $0.flatMap { $0 } } }
}
