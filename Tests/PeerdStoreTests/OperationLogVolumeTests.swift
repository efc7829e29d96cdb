import PeerdCodec
import PeerdModel
import PeerdTestKit
import SystemPackage
import Testing

@testable import PeerdStore

/// A log of the size the benchmarks use, for correctness only: how fast it opens is `make bench`'s
/// "cold start to serving" row, never a timed test.
@Suite("Operation log volume")
struct OperationLogVolumeTests {
    @Test func oneHundredThousandOperationsAppendInBatchesAndReadBackTheSame() async throws {
        try await withScratchDirectory("store") { directory in
            let path = directory.appending("operations.log")
            let all = makeOperations(count: 100_000)
            do {
                let (log, _, _) = try OperationLog.open(at: path, logger: quietLogger)
                for start in stride(from: 0, to: all.count, by: 1_000) {
                    try log.append(encoded: all[start..<start + 1_000].map(EncodedOperation.init))
                }
            }
            let (_, operations, recovery) = try OperationLog.open(at: path, logger: quietLogger)
            #expect(recovery == nil)
            #expect(operations == all)
        }
    }
}
