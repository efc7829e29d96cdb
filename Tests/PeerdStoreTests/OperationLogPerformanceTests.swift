import Foundation
import PeerdModel
import SystemPackage
import Testing

@testable import PeerdStore

@Suite("Operation log performance")
struct OperationLogPerformanceTests {
    /// The daemon must cold-start with 100,000 operations in 0.5 s, and appending them in batches
    /// of 1,000 must take well under a second apart from `fsync`. Those bounds are checked in an
    /// optimized build (`swift test -c release -Xswiftc -enable-testing`); a debug build runs the
    /// parser and the CRC several times slower, so there the bounds only catch gross regressions.
    /// The measured times are printed either way.
    #if DEBUG
    static let openBound = Duration.seconds(20)
    static let encodeBound = Duration.seconds(20)
    #else
    static let openBound = Duration.milliseconds(500)
    static let encodeBound = Duration.seconds(1)
    #endif
    /// Appending includes 100 `fsync`s, whose cost is the disk's.
    static let appendBound = Duration.seconds(30)

    @Test func oneHundredThousandOperationsAppendInBatchesAndReadBackQuickly() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appending("operations.log")
            let all = makeOperations(count: 100_000)
            let clock = ContinuousClock()

            let encodeTime = try clock.measure {
                for start in stride(from: 0, to: all.count, by: 1_000) {
                    _ = try OperationLog.records(for: Array(all[start..<start + 1_000]))
                }
            }
            let appendTime = try clock.measure {
                let (log, _, _) = try OperationLog.open(at: path, logger: quietLogger)
                for start in stride(from: 0, to: all.count, by: 1_000) {
                    try log.append(Array(all[start..<start + 1_000]))
                }
            }
            var operations: [Operation] = []
            let openTime = try clock.measure {
                operations = try OperationLog.open(at: path, logger: quietLogger).operations
            }
            print("100,000 operations: encode \(encodeTime), append with fsync \(appendTime), open \(openTime)")
            #expect(operations == all)
            #expect(openTime < Self.openBound)
            #expect(encodeTime < Self.encodeBound)
            #expect(appendTime < Self.appendBound)
        }
    }
}
