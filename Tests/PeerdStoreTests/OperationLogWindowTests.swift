import Foundation
import PeerdCodec
import PeerdModel
import PeerdTestKit
import SystemPackage
import Testing

@testable import PeerdStore

/// Opening reads the log a window at a time (`OperationLog.readWindow`); records that straddle a
/// window's end, records larger than a window, and damage beyond the first window must read as if
/// the file were read whole.
@Suite("Operation log read in windows")
struct OperationLogWindowTests {
    /// A removal naming `count` adds: about 60 bytes of JSON each.
    private func hugeRemoval(seq: UInt64, naming count: Int) -> Operation {
        let origin = PeerID("0123456789abcdef0123456789abcdef")!
        return Operation(
            id: OperationID(origin: origin, seq: seq),
            lamport: seq,
            at: 0,
            by: "alice",
            kind: .remove,
            movie: Movie(id: MovieID(1)!),
            removes: (1...UInt64(count)).map { OperationID(origin: origin, seq: $0) }
        )
    }

    @Test func aLogOfManyWindowsReadsBackWhole() async throws {
        try await withScratchDirectory("store") { directory in
            let path = directory.appending("operations.log")
            let operations = makeOperations(count: 30_000)
            let (log, _, _) = try OperationLog.open(at: path, logger: quietLogger)
            try log.append(operations)
            #expect(log.length > 4 * Int64(OperationLog.readWindow), "the test needs several windows")

            var streamed: [Operation] = []
            let (_, count, recovery) = try OperationLog.open(at: path, logger: quietLogger) { op, _ in
                streamed.append(op)
            }
            #expect(count == operations.count)
            #expect(recovery == nil)
            #expect(streamed == operations)
        }
    }

    @Test func aRecordLargerThanTheWindowIsReadWhole() async throws {
        try await withScratchDirectory("store") { directory in
            let path = directory.appending("operations.log")
            let operations =
                makeOperations(count: 5_000) + [hugeRemoval(seq: 5_001, naming: 25_000)]
                + makeOperations(count: 10, firstSeq: 5_002)
            let (log, _, _) = try OperationLog.open(at: path, logger: quietLogger)
            try log.append(operations)
            #expect(
                try OperationLog.records(for: [EncodedOperation(operations[5_000])]).count > OperationLog.readWindow
            )

            let (_, reopened, recovery) = try OperationLog.open(at: path, logger: quietLogger)
            #expect(recovery == nil)
            #expect(reopened == operations)
        }
    }

    @Test func damageBeyondTheFirstWindowKeepsEverythingBeforeIt() async throws {
        try await withScratchDirectory("store") { directory in
            let path = directory.appending("operations.log")
            let operations = makeOperations(count: 25_000)
            let (log, _, _) = try OperationLog.open(at: path, logger: quietLogger)
            try log.append(Array(operations[..<20_000]))
            let damageAt = log.length
            try log.append(Array(operations[20_000...]))
            #expect(damageAt > 2 * Int64(OperationLog.readWindow))
            var bytes = try contents(of: path)
            bytes[Int(damageAt) + 20] ^= 0xFF  // inside the payload of record 20,001
            try write(bytes, to: path)

            let (_, kept, recovery) = try OperationLog.open(at: path, logger: quietLogger)
            #expect(kept == Array(operations[..<20_000]))
            #expect(recovery?.offset == damageAt)
            #expect(recovery?.bytesDropped == Int64(bytes.count) - damageAt)
            #expect(try contents(of: path) == Array(bytes[..<Int(damageAt)]))
        }
    }

    @Test func aTornRecordAtTheEndOfALongLogIsCutOff() async throws {
        try await withScratchDirectory("store") { directory in
            let path = directory.appending("operations.log")
            let operations = makeOperations(count: 12_000)
            let (log, _, _) = try OperationLog.open(at: path, logger: quietLogger)
            try log.append(Array(operations[..<11_999]))
            let lastStart = log.length
            try log.append([operations[11_999]])
            let bytes = try contents(of: path)
            try write(Array(bytes.dropLast(3)), to: path)

            let (_, kept, recovery) = try OperationLog.open(at: path, logger: quietLogger)
            #expect(kept == Array(operations[..<11_999]))
            #expect(recovery?.offset == lastStart)
            #expect(recovery?.operationsKept == 11_999)
        }
    }
}
