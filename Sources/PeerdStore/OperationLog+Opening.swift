package import Logging
import PeerdCodec
package import PeerdModel
package import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension OperationLog {
    /// How much of the file is read at a time: records are parsed straight from this window, so
    /// opening a log holds neither the whole file nor all its operations in memory at once.
    static let readWindow = 1 << 20

    /// Opens the log at `path` and returns every operation in it; see
    /// ``open(at:logger:reading:)``, which hands them over one at a time instead.
    package static func open(
        at path: FilePath,
        logger: Logger
    ) throws(StoreError) -> (log: OperationLog, operations: [Operation], recovery: Recovery?) {
        var operations: [Operation] = []
        let (log, _, recovery) = try open(at: path, logger: logger, proofs: true) { operation, _ in
            operations.append(operation)
        }
        return (log, operations, recovery)
    }

    /// Opens the log at `path`, creating it (mode 0600) if missing, and hands every operation in it
    /// to `read`, in file order, with the offset of its record (``operation(at:)`` reads it again);
    /// returns how many there were. Without `proofs`, each operation comes without its proof
    /// (``OperationProof``), which is then not decoded at all: a replica keeps proofs on disk and
    /// reads one back when a peer asks for it.
    ///
    /// The file is read a window of ``readWindow`` bytes at a time, without a system call per
    /// record, and each payload is read by one `OperationJSONReader` (its fast parser, or
    /// `JSONDecoder` for unusual JSON). At the first damaged record (cut short, impossible length,
    /// checksum mismatch, not an operation), the rest of the file is copied to
    /// `<path>.corrupt-<unix-seconds>`, the log is cut there and flushed, one warning is logged, and
    /// `recovery` describes what was dropped; `read` has then seen the records before it. Any
    /// content is handled without trapping.
    ///
    /// - Throws: `StoreError.notALog` if the file does not start with ``magic`` (it is left as it
    ///   was), `.cannotAccess` if it cannot be opened or read, `.recoveryFailed` if a damaged end
    ///   cannot be copied aside (the log is then left as it was).
    ///
    /// With `tail`, the records before that offset (the end of a record: what a snapshot covers,
    /// ``ReplicaSnapshot``) are neither read nor checked.
    package static func open(
        at path: FilePath,
        logger: Logger,
        proofs: Bool = false,
        tail: Int64? = nil,
        reading read: (Operation, _ offset: UInt64) -> Void
    ) throws(StoreError) -> (log: OperationLog, count: Int, recovery: Recovery?) {
        let descriptor = try FileDescriptor.openOrCreate(path)
        do throws(StoreError) {
            let size = try checkHeader(of: descriptor, at: path, logger: logger)
            let start = min(max(tail ?? 0, Int64(magic.count)), size)
            let scan = try readInPipeline(of: descriptor, at: path, range: start..<size, proofs: proofs, read)
            let length = start + Int64(scan.intactLength)
            var recovery: Recovery?
            if let failure = scan.failure {
                let dropped: [UInt8]
                do throws(Errno) {
                    dropped = try descriptor.readFully(from: length, count: Int(size - length))
                } catch {
                    throw .cannotAccess(path, error)
                }
                recovery = try cutDamagedEnd(
                    of: descriptor,
                    at: path,
                    offset: length,
                    dropping: dropped[...],
                    reason: failure,
                    operationsKept: scan.count,
                    logger: logger
                )
            }
            let log = OperationLog(path: path, descriptor: descriptor, length: length, logger: logger)
            return (log, scan.count, recovery)
        } catch {
            try? descriptor.close()
            throw error
        }
    }

    /// The format a newer release's log says it has ("PEERDLG2" and on), else nil.
    private static func newerLogFormat(_ header: [UInt8]) -> Int? {
        guard header.count == magic.count, header.starts(with: magic.dropLast()),
            let found = Int(String(decoding: header.suffix(1), as: UTF8.self)), found > 1
        else { return nil }
        return found
    }

    /// Checks the magic header and returns the file's size. A new file (or one whose creation was
    /// cut off inside the header) gets the header written and flushed.
    private static func checkHeader(
        of descriptor: FileDescriptor,
        at path: FilePath,
        logger: Logger
    ) throws(StoreError) -> Int64 {
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
            return Int64(magic.count)
        }
        if let found = newerLogFormat(header) { throw .newerFormat(path, found: found, reads: 1) }
        guard header == magic else { throw .notALog(path) }
        return size
    }

    /// ``readRecords(of:at:size:proofs:_:)`` on a thread of its own, handing the operations to
    /// `read` here as they come (``RecordPipe``).
    private static func readInPipeline(
        of descriptor: FileDescriptor,
        at path: FilePath,
        range: Range<Int64>,
        proofs: Bool,
        _ read: (Operation, UInt64) -> Void
    ) throws(StoreError) -> LogRecord.Scan {
        let result = RecordPipe.run { pipe in
            var batch: RecordPipe.Batch = []
            let scan = Result { () throws(StoreError) -> LogRecord.Scan in
                try readRecords(of: descriptor, at: path, range: range, proofs: proofs) { operation, offset in
                    batch.append((operation, offset))
                    guard batch.count == RecordPipe.batchSize else { return }
                    pipe.send(batch)
                    batch = []
                }
            }
            if !batch.isEmpty { pipe.send(batch) }
            return scan
        } replaying: { batch in
            for (operation, offset) in batch { read(operation, offset) }
        }
        return try result.get()
    }

    /// Scans the records after the header, a window at a time: a record the window's end cuts off
    /// is moved to the window's start and completed by the next read (the window grows for a
    /// record larger than itself, up to the 4 MiB limit).
    private static func readRecords(
        of descriptor: FileDescriptor,
        at path: FilePath,
        range: Range<Int64>,
        proofs: Bool,
        _ read: (Operation, UInt64) -> Void
    ) throws(StoreError) -> LogRecord.Scan {
        let size = range.upperBound
        var total = LogRecord.Scan()
        var reader = OperationJSONReader(skippingProofs: !proofs)
        var window = [UInt8](repeating: 0, count: Int(min(Int64(readWindow), range.upperBound - range.lowerBound)))
        var start = range.lowerBound  // the file offset of window[0]
        var filled = 0
        while true {
            let wanted = min(window.count - filled, Int(size - start) - filled)
            var got = 0
            if wanted > 0 {
                let result = window.withUnsafeMutableBytes { bytes in
                    Result { () throws(Errno) in
                        try descriptor.readFully(
                            into: UnsafeMutableRawBufferPointer(rebasing: bytes[filled..<filled + wanted]),
                            from: start + Int64(filled)
                        )
                    }
                }
                do throws(Errno) {
                    got = try result.get()
                } catch {
                    throw .cannotAccess(path, error)
                }
                filled += got
            }
            let isEnd = got < wanted || start + Int64(filled) >= size
            let scan = window.withUnsafeBytes { bytes in
                LogRecord.scan(UnsafeRawBufferPointer(rebasing: bytes[..<filled]), isEnd: isEnd, reader: &reader) {
                    read($0, UInt64(start) + UInt64($1))
                }
            }
            total.count += scan.count
            total.intactLength += scan.intactLength
            if scan.failure != nil || isEnd {
                total.failure = scan.failure
                return total
            }
            let capacity = max(window.count, scan.needs ?? 0)
            window.removeSubrange(0..<scan.intactLength)
            window += repeatElement(0, count: capacity - window.count)
            filled -= scan.intactLength
            start += Int64(scan.intactLength)
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
