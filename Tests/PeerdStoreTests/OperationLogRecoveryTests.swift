import Foundation
import Logging
import PeerdModel
import PeerdTestKit
import SystemPackage
import Testing

@testable import PeerdStore

/// Damaged logs: each test builds a good log, damages it the way a crash, a bad disk or a stray
/// write would, and checks that opening keeps exactly the records before the damage.
@Suite("Operation log recovery")
struct OperationLogRecoveryTests {
    /// A log of three batches; returns the operations and the byte offset where each record starts.
    private func makeLog(at path: FilePath) throws -> (operations: [Operation], recordStarts: [Int64]) {
        let operations = makeOperations(count: 3)
        let (log, _, _) = try OperationLog.open(at: path, logger: quietLogger)
        var starts: [Int64] = []
        for operation in operations {
            starts.append(log.length)
            try log.append([operation])
        }
        return (operations, starts)
    }

    @Test func aLogCutAtEveryByteInsideItsLastRecordKeepsTheRecordsBefore() async throws {
        try await withScratchDirectory("store") { directory in
            let original = directory.appending("original.log")
            let (operations, starts) = try makeLog(at: original)
            let bytes = try contents(of: original)
            let lastStart = Int(starts[2])
            for cut in (lastStart + 1)..<bytes.count {
                let caseDirectory = directory.appending("cut-\(cut)")
                try FileManager.createDirectory(caseDirectory)
                let path = caseDirectory.appending("operations.log")
                try write(Array(bytes[..<cut]), to: path)

                let (log, kept, recovery) = try OperationLog.open(at: path, logger: quietLogger)
                #expect(kept == Array(operations[0..<2]), "cut at \(cut)")
                #expect(recovery?.offset == Int64(lastStart), "cut at \(cut)")
                #expect(recovery?.bytesDropped == Int64(cut - lastStart), "cut at \(cut)")
                #expect(recovery?.operationsKept == 2)
                if cut - lastStart < 8 {
                    #expect(recovery?.reason == .tornHeader(available: cut - lastStart))
                } else {
                    #expect(
                        recovery?.reason
                            == .tornPayload(expected: bytes.count - lastStart - 8, available: cut - lastStart - 8)
                    )
                }
                #expect(try contents(of: path) == Array(bytes[..<lastStart]), "cut at \(cut)")
                #expect(log.length == Int64(lastStart))

                try log.append([operations[2]])
                let (_, reopened, again) = try OperationLog.open(at: path, logger: quietLogger)
                #expect(reopened == operations, "cut at \(cut)")
                #expect(again == nil)
            }
        }
    }

    @Test func aLogCutExactlyBetweenRecordsNeedsNoRecovery() async throws {
        try await withScratchDirectory("store") { directory in
            let path = directory.appending("operations.log")
            let (operations, starts) = try makeLog(at: path)
            try write(Array(try contents(of: path)[..<Int(starts[2])]), to: path)
            let (_, kept, recovery) = try OperationLog.open(at: path, logger: quietLogger)
            #expect(kept == Array(operations[0..<2]))
            #expect(recovery == nil)
        }
    }

    @Test(arguments: [1, 2])
    func aFlippedPayloadByteDropsThatRecordAndEverythingAfterIt(damagedRecord: Int) async throws {
        try await withScratchDirectory("store") { directory in
            let path = directory.appending("operations.log")
            let (operations, starts) = try makeLog(at: path)
            var bytes = try contents(of: path)
            let start = Int(starts[damagedRecord])
            bytes[start + 8 + 20] ^= 0x01
            try write(bytes, to: path)

            let (_, kept, recovery) = try OperationLog.open(at: path, logger: quietLogger)
            #expect(kept == Array(operations[..<damagedRecord]))
            guard case .checksumMismatch = recovery?.reason else {
                Issue.record("expected a checksum mismatch, got \(String(describing: recovery))")
                return
            }
            #expect(recovery?.offset == Int64(start))
            #expect(recovery?.bytesDropped == Int64(bytes.count - start))
            #expect(try contents(of: path).count == start)
        }
    }

    @Test func aZeroFilledTailAsAfterPowerLossIsCutOff() async throws {
        try await expectTailIsCut([UInt8](repeating: 0, count: 4096), reason: .badLength(0))
    }

    @Test func anAbsurdLengthHeaderIsRefusedWithoutReadingFurther() async throws {
        let header: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0x12, 0x34, 0x56, 0x78, 0x7B]
        try await expectTailIsCut(header, reason: .badLength(0xFFFF_FFFF))
    }

    @Test func aLengthJustOverTheLimitIsRefused() async throws {
        let length = UInt32(OperationLog.maxRecordLength + 1)
        var header: [UInt8] = []
        LogRecord.appendBigEndian(length, to: &header)
        try await expectTailIsCut(header + [0, 0, 0, 0], reason: .badLength(length))
    }

    @Test func aRecordWithAGoodChecksumButNoOperationInsideIsCutOff() async throws {
        var record: [UInt8] = []
        Array(#"{"movie":"not an operation"}"#.utf8).withUnsafeBytes { LogRecord.append(payload: $0, to: &record) }
        try await expectTailIsCut(record, reason: nil)
    }

    @Test func randomGarbageAfterTheLastRecordNeverLosesGoodRecords() async throws {
        var generator = SplitMix64(seed: 603)
        for round in 0..<200 {
            let count = Int.random(in: 1...300, using: &generator)
            let garbage = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try await expectTailIsCut(garbage, reason: nil, "round \(round)")
        }
    }

    @Test func theDroppedBytesAreSavedBesideTheLogAndOneWarningIsLogged() async throws {
        try await withScratchDirectory("store") { directory in
            let path = directory.appending("operations.log")
            let (_, starts) = try makeLog(at: path)
            var bytes = try contents(of: path)
            bytes[Int(starts[1]) + 12] ^= 0x40
            try write(bytes, to: path)
            let recorder = LogRecorder()

            let (_, _, recovery) = try OperationLog.open(at: path, logger: recorder.logger)
            let savedTo = try #require(recovery?.savedTo)
            #expect(savedTo.removingLastComponent() == directory)
            #expect(savedTo.lastComponent?.string.hasPrefix("operations.log.corrupt-") == true)
            #expect(try contents(of: savedTo) == Array(bytes[Int(starts[1])...]))
            #expect(try mode(of: savedTo) == 0o600)

            let warnings = recorder.records.filter { $0.level == .warning }
            let metadata = warnings.first?.metadata.mapValues(\.description)
            #expect(warnings.count == 1)
            #expect(metadata?["offset"] == "\(starts[1])")
            #expect(metadata?["bytesDropped"] == "\(bytes.count - Int(starts[1]))")
            #expect(metadata?["reason"]?.contains("checksum mismatch") == true)
        }
    }

    @Test func twoRecoveriesInOneSecondKeepBothCopies() async throws {
        try await withScratchDirectory("store") { directory in
            let path = directory.appending("operations.log")
            _ = try makeLog(at: path)
            let good = try contents(of: path)
            try write(good + [1, 2, 3], to: path)
            let first = try OperationLog.open(at: path, logger: quietLogger).recovery
            try write(good + [4, 5, 6, 7], to: path)
            let second = try OperationLog.open(at: path, logger: quietLogger).recovery
            let firstPath = try #require(first?.savedTo)
            let secondPath = try #require(second?.savedTo)
            #expect(firstPath != secondPath)
            #expect(try contents(of: firstPath) == [1, 2, 3])
            #expect(try contents(of: secondPath) == [4, 5, 6, 7])
        }
    }

    /// Appends `tail` to a good three-record log, opens it, and checks that all three records are
    /// kept, the tail is cut off and saved, and the log works afterwards.
    private func expectTailIsCut(
        _ tail: [UInt8],
        reason: Recovery.Reason?,
        _ comment: Comment? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await withScratchDirectory("store") { directory in
            let path = directory.appending("operations.log")
            let (operations, _) = try makeLog(at: path)
            let good = try contents(of: path)
            try write(good + tail, to: path)

            let (log, kept, recovery) = try OperationLog.open(at: path, logger: quietLogger)
            #expect(kept == operations, comment, sourceLocation: sourceLocation)
            #expect(recovery?.offset == Int64(good.count), comment, sourceLocation: sourceLocation)
            #expect(recovery?.bytesDropped == Int64(tail.count), comment, sourceLocation: sourceLocation)
            if let reason {
                #expect(recovery?.reason == reason, comment, sourceLocation: sourceLocation)
            }
            #expect(try contents(of: path) == good, comment, sourceLocation: sourceLocation)
            if let savedTo = recovery?.savedTo {
                #expect(try contents(of: savedTo) == tail, comment, sourceLocation: sourceLocation)
            }
            let more = makeOperations(count: 2, firstSeq: 4)
            try log.append(more)
            let (_, reopened, _) = try OperationLog.open(at: path, logger: quietLogger)
            #expect(reopened == operations + more, comment, sourceLocation: sourceLocation)
        }
    }
}

extension FileManager {
    static func createDirectory(_ path: FilePath) throws {
        try FileManager.default.createDirectory(atPath: path.string, withIntermediateDirectories: true)
    }
}
