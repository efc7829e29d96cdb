import PeerdCodec
import PeerdStore
import Synchronization
import SystemPackage

@testable import PeerdDaemon

/// An `OperationStore` in memory that can be told to fail.
final class MemoryStore: OperationStore {
    let written = Mutex<[[EncodedOperation]]>([])
    let failing = Mutex(false)

    func append(_ operations: [EncodedOperation]) async throws {
        if failing.withLock({ $0 }) { throw StoreError.writeFailed(FilePath("/memory"), .noSpace) }
        written.withLock { $0.append(operations) }
    }

    var operations: [EncodedOperation] { written.withLock { $0.flatMap { $0 } } }
}
