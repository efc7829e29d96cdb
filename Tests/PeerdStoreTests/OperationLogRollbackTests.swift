import Foundation
import PeerdModel
import PeerdTestKit
import SystemPackage
import Testing

@testable import PeerdStore

#if canImport(Glibc)
import Glibc
#endif

@Suite("Operation log rollback")
struct OperationLogRollbackTests {
    /// A real write failure without root or a small file system: a child process lowers its own
    /// `RLIMIT_FSIZE` just above the log's size, so a large batch is partly written and then fails
    /// with `EFBIG`. The child checks the error and that the log still appends what fits; the
    /// parent then checks, from the file alone, that no byte of the failed batch stayed.
    @Test func aBatchThatFailsHalfwayIsCutBackOffAndTheLogStillWorks() async throws {
        try await withScratchDirectory("store") { directory in
            let path = directory.appending("operations.log")
            let saved = makeOperations(count: 3)
            let (log, _, _) = try OperationLog.open(at: path, logger: quietLogger)
            try log.append(saved)
            let pathText = path.string

            let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                [pathText = pathText as String] in
                try failOneAppendUnderAFileSizeLimit(at: FilePath(pathText))
            }

            let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(stderr.contains("File too large while saving to \(pathText)"), "child said: \(stderr)")
            let (_, operations, recovery) = try OperationLog.open(at: path, logger: quietLogger)
            #expect(recovery == nil)
            #expect(operations == saved + makeOperations(count: 1, firstSeq: 4))
        }
    }
}

/// Runs in the child process of the exit test. Exits non-zero, saying why on stderr, when the
/// log does not behave.
private func failOneAppendUnderAFileSizeLimit(at path: FilePath) throws {
    func fail(_ why: String) -> Never {
        FileHandle.standardError.write(Data("FAILED: \(why)\n".utf8))
        exit(1)
    }
    signal(SIGXFSZ, SIG_IGN)  // get EFBIG from write() instead of being killed
    let (log, operations, _) = try OperationLog.open(at: path, logger: quietLogger)
    let before = log.length
    var limit = rlimit()
    getrlimit(RLIMIT_FSIZE_RESOURCE, &limit)
    limit.rlim_cur = rlim_t(before + 1_000)
    guard setrlimit(RLIMIT_FSIZE_RESOURCE, &limit) == 0 else { fail("setrlimit: \(Errno(rawValue: errno))") }

    do {
        try log.append(makeOperations(count: 40, firstSeq: UInt64(operations.count + 1)))
        fail("a 40-operation batch was accepted past the file size limit")
    } catch StoreError.writeFailed(let failedPath, .fileTooLarge) where failedPath == path {
        FileHandle.standardError.write(Data("\(StoreError.writeFailed(failedPath, .fileTooLarge))\n".utf8))
    } catch {
        fail("unexpected error \(error)")
    }
    let size = try FileManager.default.attributesOfItem(atPath: path.string)[.size] as! NSNumber
    guard log.length == before, size.int64Value == before else {
        fail("length \(log.length), file \(size), expected \(before)")
    }
    try log.append(makeOperations(count: 1, firstSeq: UInt64(operations.count + 1)))
    exit(0)
}

#if canImport(Glibc)
private let RLIMIT_FSIZE_RESOURCE = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
#else
private let RLIMIT_FSIZE_RESOURCE = RLIMIT_FSIZE
#endif
