import PeerdCodec
import PeerdModel
import PeerdTestKit
import SystemPackage
import Testing

@testable import PeerdStore

@Suite("Operation log")
struct OperationLogTests {
    @Test func openingAMissingLogCreatesItWithOnlyTheHeaderAndMode0600() async throws {
        try await withScratchDirectory("store") { directory in
            let path = directory.appending("operations.log")
            let (log, operations, recovery) = try OperationLog.open(at: path, logger: quietLogger)
            #expect(operations.isEmpty)
            #expect(recovery == nil)
            #expect(log.length == 8)
            #expect(try contents(of: path) == Array("PEERDLG1".utf8))
            #expect(try mode(of: path) == 0o600)
        }
    }

    @Test func appendedBatchesComeBackInTheSameOrderAfterReopening() async throws {
        try await withScratchDirectory("store") { directory in
            let path = directory.appending("operations.log")
            let all = makeOperations(count: 60)
            do {
                let (log, _, _) = try OperationLog.open(at: path, logger: quietLogger)
                try log.append(Array(all[0..<1]))
                try log.append(Array(all[1..<25]))
                try log.append([])
                try log.append(Array(all[25..<60]))
                #expect(log.length == Int64(try contents(of: path).count))
            }
            let (log, operations, recovery) = try OperationLog.open(at: path, logger: quietLogger)
            #expect(operations == all)
            #expect(recovery == nil)
            try log.append(makeOperations(count: 3, firstSeq: 61))
            let (_, reopened, _) = try OperationLog.open(at: path, logger: quietLogger)
            #expect(reopened == all + makeOperations(count: 3, firstSeq: 61))
        }
    }

    @Test func recordsHoldBigEndianLengthCRCAndSortedKeyJSON() async throws {
        try await withScratchDirectory("store") { directory in
            let path = directory.appending("operations.log")
            let operation = makeOperations(count: 1)[0]
            let (log, _, _) = try OperationLog.open(at: path, logger: quietLogger)
            try log.append([operation])
            let bytes = try contents(of: path)
            let payload = Array(bytes[16...])
            let length = bytes[8..<12].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            let crc = bytes[12..<16].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            #expect(Int(length) == payload.count)
            #expect(crc == CRC32C.checksum(payload))
            let json = String(decoding: payload, as: UTF8.self)
            #expect(
                json == #"{"at":1763700000001,"by":"alice","lamport":1,"#
                    + #""movie":{"id":2,"title":"Amélie","year":1999},"op":"add","#
                    + #""origin":"0123456789abcdef0123456789abcdef","seq":1}"#
            )
        }
    }

    @Test func anEmptyFileIsTakenAsANewLogAndGetsItsHeader() async throws {
        try await withScratchDirectory("store") { directory in
            let path = directory.appending("operations.log")
            for start in [[], Array("PEER".utf8)] {
                try write(start, to: path)
                let (_, operations, recovery) = try OperationLog.open(at: path, logger: quietLogger)
                #expect(operations.isEmpty)
                #expect(recovery == nil)
                #expect(try contents(of: path) == Array("PEERDLG1".utf8))
            }
        }
    }

    @Test(arguments: ["NOTALOG1 and then some text", "PEERDLG0", "hi", "PEERDLG\u{0}"])
    func aFileWithAnotherHeaderIsRefusedAndLeftUntouched(content: String) async throws {
        try await withScratchDirectory("store") { directory in
            let path = directory.appending("operations.log")
            let original = Array(content.utf8)
            try write(original, to: path)
            #expect(throws: StoreError.notALog(path)) {
                _ = try OperationLog.open(at: path, logger: quietLogger)
            }
            #expect(try contents(of: path) == original)
            #expect(try names(in: directory) == ["operations.log"])
            #expect(StoreError.notALog(path).description.contains("not a peerd operation log"))
        }
    }

    @Test(arguments: ["PEERDLG2", "PEERDLG9 and records"])
    func aLogANewerReleaseWroteIsRefusedAsNewerAndLeftUntouched(content: String) async throws {
        try await withScratchDirectory("store") { directory in
            let path = directory.appending("operations.log")
            let original = Array(content.utf8)
            try write(original, to: path)
            let found = Int(String(content.dropFirst(7).prefix(1)))!
            #expect(throws: StoreError.newerFormat(path, found: found, reads: 1)) {
                _ = try OperationLog.open(at: path, logger: quietLogger)
            }
            #expect(try contents(of: path) == original)
            #expect(try names(in: directory) == ["operations.log"])
        }
    }

    @Test func anOperationTooLargeForARecordIsRefusedBeforeAnythingIsWritten() async throws {
        try await withScratchDirectory("store") { directory in
            let path = directory.appending("operations.log")
            let (log, _, _) = try OperationLog.open(at: path, logger: quietLogger)
            var huge = makeOperations(count: 1)[0]
            huge.by = String(repeating: "x", count: OperationLog.maxRecordLength)
            let error = #expect(throws: StoreError.self) { try log.append(makeOperations(count: 2) + [huge]) }
            guard case .invalidOperation(let id, _) = error else {
                Issue.record("expected invalidOperation, got \(String(describing: error))")
                return
            }
            #expect(id == huge.id)
            #expect(log.length == 8)
            #expect(try contents(of: path).count == 8)
        }
    }

    @Test func aWriteFailureMessageSaysWhatHappenedAndWhatToDo() {
        let error = StoreError.writeFailed("/home/a/.local/state/peerd/operations.log", .noSpace)
        #expect(
            error.description
                == "No space left on device while saving to /home/a/.local/state/peerd/operations.log: "
                + "free some space; nothing was saved."
        )
    }
}

@Suite("Operation log keeps what it does not know")
struct OperationLogVerbatimTests {
    @Test func anOperationWithAnUnknownFieldComesBackByteForByteAfterReopening() async throws {
        try await withScratchDirectory("store") { directory in
            let path = directory.appending("operations.log")
            let origin = makeOperations(count: 1)[0].id.origin
            let json =
                #"{"at":1,"by":"bob","lamport":2,"movie":{"id":603,"poster":"/p.jpg"},"op":"add","#
                + #""origin":"\#(origin)","seq":1,"zz":[1,{"a":null}]}"#
            var reader = OperationJSONReader()
            let later = try Array(json.utf8).withUnsafeBytes { try reader.decode($0) }
            do {
                let (log, _, _) = try OperationLog.open(at: path, logger: quietLogger)
                try log.append([later])
            }
            let (_, operations, recovery) = try OperationLog.open(at: path, logger: quietLogger)
            #expect(recovery == nil)
            #expect(operations == [later])
            #expect(operations.first.map(OperationJSON.encode) == Array(json.utf8))
        }
    }
}
