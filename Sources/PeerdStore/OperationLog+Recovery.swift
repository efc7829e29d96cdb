import Logging
import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension OperationLog {
    /// Copies `dropped` (the log's bytes from `offset`, the first damaged record, to the end) aside,
    /// then cuts the log at `offset` and flushes it. Nothing is cut unless the copy is safely on disk.
    static func cutDamagedEnd(
        of descriptor: FileDescriptor,
        at path: FilePath,
        offset: Int64,
        dropping dropped: ArraySlice<UInt8>,
        reason: Recovery.Reason,
        operationsKept: Int,
        logger: Logger
    ) throws(StoreError) -> Recovery {
        let savedTo = try saveAside(dropped, from: path)
        do throws(Errno) {
            try descriptor.truncate(to: offset)
            try descriptor.synchronize()
        } catch {
            throw .recoveryFailed(path, error)
        }
        let recovery = Recovery(
            offset: offset,
            bytesDropped: Int64(dropped.count),
            reason: reason,
            operationsKept: operationsKept,
            savedTo: savedTo
        )
        logger.warning(
            "operation log ended in a damaged record; cut it off and kept the records before it",
            metadata: [
                "path": "\(path)",
                "offset": "\(offset)",
                "bytesDropped": "\(dropped.count)",
                "reason": "\(reason)",
                "operationsKept": "\(operationsKept)",
                "savedTo": "\(savedTo)",
            ]
        )
        return recovery
    }

    /// Writes `bytes` to a new file `<path>.corrupt-<unix-seconds>` (with `-2`, `-3`, … if that
    /// name is taken), mode 0600, flushed together with its directory entry.
    private static func saveAside(_ bytes: ArraySlice<UInt8>, from path: FilePath) throws(StoreError) -> FilePath {
        let seconds = Int64(Date().timeIntervalSince1970)
        let stem = "\(path.lastComponent?.string ?? "operations.log").corrupt-\(seconds)"
        var attempt = 1
        while true {
            let name = attempt == 1 ? stem : "\(stem)-\(attempt)"
            let target = path.directory.appending(name)
            let descriptor: FileDescriptor
            do {
                descriptor = try FileDescriptor.open(
                    target,
                    .writeOnly,
                    options: [.create, .exclusiveCreate, .closeOnExec],
                    permissions: [.ownerReadWrite]
                )
            } catch Errno.fileExists where attempt < 1000 {
                attempt += 1
                continue
            } catch {
                throw .recoveryFailed(path, error as? Errno ?? .ioError)
            }
            do throws(Errno) {
                defer { try? descriptor.close() }
                try descriptor.writeFully(bytes, at: 0)
                try descriptor.synchronize()
                try FileDescriptor.synchronizeDirectory(path.directory)
            } catch {
                target.removeFileIfPresent()
                throw .recoveryFailed(path, error)
            }
            return target
        }
    }
}
