import Logging
import PeerdModel
import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension OperationLog {
    /// Opens the log at `path`, creating it (mode 0600) if missing, and reads every operation in it.
    ///
    /// The file is read in one piece, without a system call per record, and each payload is read by
    /// one `OperationJSONReader` (its fast parser, or `JSONDecoder` for unusual JSON). At the first damaged
    /// record (cut short, impossible length, checksum mismatch, not an operation), the rest of the
    /// file is copied to `<path>.corrupt-<unix-seconds>`, the log is cut there and flushed, one
    /// warning is logged, and `recovery` describes what was dropped. Any content is handled
    /// without trapping.
    ///
    /// - Throws: `StoreError.notALog` if the file does not start with ``magic`` (it is left as it
    ///   was), `.cannotAccess` if it cannot be opened or read, `.recoveryFailed` if a damaged end
    ///   cannot be copied aside (the log is then left as it was).
    public static func open(
        at path: FilePath,
        logger: Logger
    ) throws(StoreError) -> (log: OperationLog, operations: [Operation], recovery: Recovery?) {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(
                path,
                .readWrite,
                options: [.create, .closeOnExec],
                permissions: [.ownerReadWrite]
            )
        } catch {
            throw .cannotAccess(path, error as? Errno ?? .ioError)
        }
        do throws(StoreError) {
            let body = try readBody(of: descriptor, at: path, logger: logger)
            let scan = body.withUnsafeBytes { LogRecord.scan($0) }
            let length = Int64(magic.count + scan.intactLength)
            var recovery: Recovery?
            if let failure = scan.failure {
                recovery = try cutDamagedEnd(
                    of: descriptor,
                    at: path,
                    offset: length,
                    dropping: body[scan.intactLength...],
                    reason: failure,
                    operationsKept: scan.operations.count,
                    logger: logger
                )
            }
            let log = OperationLog(path: path, descriptor: descriptor, length: length, logger: logger)
            return (log, scan.operations, recovery)
        } catch {
            try? descriptor.close()
            throw error
        }
    }

    /// Checks the magic header and returns every byte after it. A new file (or one whose creation
    /// was cut off inside the header) gets the header written and flushed.
    private static func readBody(
        of descriptor: FileDescriptor,
        at path: FilePath,
        logger: Logger
    ) throws(StoreError) -> [UInt8] {
        let size: Int64
        let header: [UInt8]
        do throws(Errno) {
            size = try descriptor.stat().size
            header = try descriptor.readFully(from: 0, count: magic.count)
        } catch {
            throw .cannotAccess(path, error)
        }
        if header.count < magic.count, header.elementsEqual(magic.prefix(header.count)) {
            do throws(Errno) {
                try descriptor.truncate(to: 0)
                try descriptor.writeFully(magic, at: 0)
                try descriptor.synchronize()
                try FileDescriptor.synchronizeDirectory(path.directory)
            } catch {
                throw .writeFailed(path, error)
            }
            logger.info("created operation log", metadata: ["path": "\(path)"])
            return []
        }
        guard header == magic else { throw .notALog(path) }
        do throws(Errno) {
            return try descriptor.readFully(from: Int64(magic.count), count: max(0, Int(size) - magic.count))
        } catch {
            throw .cannotAccess(path, error)
        }
    }
}

extension FilePath {
    /// The directory holding this file; `.` for a bare file name.
    var directory: FilePath {
        let parent = removingLastComponent()
        return parent.isEmpty ? "." : parent
    }
}
