import Logging
package import PeerdCodec
package import PeerdModel
import Synchronization
package import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The durable, append-only log of every operation this replica holds, in one file
/// (`<state-dir>/operations.log`).
///
/// ```
///  0          8                     8+8+N1
///  +----------+---------------------+---------------------+-----
///  | PEERDLG1 | record 1            | record 2            | …
///  +----------+---------------------+---------------------+-----
///
///  record:  +-------------------+-------------------+----------------------------+
///           | length N (u32 BE) | CRC-32C (u32 BE)  | N bytes: Operation as JSON |
///           +-------------------+-------------------+----------------------------+
/// ```
///
/// The magic header is the ASCII text `PEERDLG1`; each payload is an ``Operation`` encoded as JSON,
/// `N` is 1 through ``maxRecordLength``, and the CRC-32C (Castagnoli) covers the payload (see
/// `LogRecord`). The payload's JSON need not be canonical: any JSON `Operation`'s `Decodable`
/// conformance accepts is read back (older logs hold `JSONEncoder`'s `.sortedKeys` output, which
/// escapes `/` as `\/`). New records hold `OperationJSON`'s canonical form, the same bytes an
/// operation has in an `ops` frame.
///
/// - Durability: ``append(_:)`` writes all its records with one write and one `fsync`, so a batch
///   is on disk when it returns (group commit: the daemon gathers pending operations into one call).
///   A failed append is cut back off, so a half-written batch never stays.
/// - Recovery: a crash can leave a torn last record; ``open(at:logger:)`` keeps every record before
///   the first damaged one and cuts the rest off after copying it aside.
///
/// `Sendable` without `@unchecked`: the descriptor and the file length live in a
/// `Mutex`, so appends from different tasks are serialized (the daemon uses it from one actor).
package final class OperationLog: Sendable {
    /// The first 8 bytes of every operation log.
    package static let magic: [UInt8] = Array("PEERDLG1".utf8)
    /// The largest payload a record may have: 4 MiB.
    package static let maxRecordLength = LogRecord.maxPayloadLength

    /// The log file.
    package let path: FilePath
    let logger: Logger
    private let state: Mutex<State>

    struct State {
        var descriptor: FileDescriptor
        /// The file's length after the last successful append: where the next batch goes.
        var length: Int64
        /// Set when a failed append could not be cut back off; the file's end is then unknown.
        var isUnusable = false
    }

    init(path: FilePath, descriptor: FileDescriptor, length: Int64, logger: Logger) {
        self.path = path
        self.logger = logger
        self.state = Mutex(State(descriptor: descriptor, length: length))
    }

    deinit {
        state.withLock { try? $0.descriptor.close() }
    }

    /// The log's size in bytes, header included.
    package var length: Int64 {
        state.withLock { $0.length }
    }

    /// Appends `operations` in order and makes them durable: one write, then one `fsync`.
    ///
    /// All or nothing: if writing or flushing fails (no space, I/O error, a size limit), the file
    /// is cut back to its length before this call and `StoreError.writeFailed` says why.
    /// An empty array does nothing.
    @discardableResult
    package func append(_ operations: [Operation]) throws(StoreError) -> [UInt64] {
        try append(encoded: operations.map(EncodedOperation.init))
    }

    /// Appends operations already in their canonical JSON; the same, without encoding them again.
    /// Returns the offset of each one's record, for ``operation(at:)``.
    @discardableResult
    package func append(encoded operations: [EncodedOperation]) throws(StoreError) -> [UInt64] {
        guard !operations.isEmpty else { return [] }
        return try state.withLock { (state) throws(StoreError) -> [UInt64] in
            guard !state.isUnusable else { throw .logUnusable(path) }
            let records = try Self.records(for: operations)
            let start = state.length
            do throws(Errno) {
                try state.descriptor.writeFully(records, at: start)
                try state.descriptor.synchronize()
            } catch {
                rollBack(&state, to: start, after: error)
                throw .writeFailed(path, error)
            }
            state.length = start + Int64(records.count)
            var offsets: [UInt64] = []
            offsets.reserveCapacity(operations.count)
            var offset = UInt64(start)
            for operation in operations {
                offsets.append(offset)
                offset += UInt64(LogRecord.headerLength + operation.json.count)
            }
            return offsets
        }
    }

    /// The descriptor, for reading a record back (`pread` moves no shared offset, and the log
    /// closes it only once nobody holds the log).
    var descriptorForReading: FileDescriptor { state.withLock { $0.descriptor } }

    /// Cuts the file back to `length` after a failed append. If even that fails, the file may hold
    /// part of the batch, so the log refuses further appends until a restart recovers it.
    func rollBack(_ state: inout State, to length: Int64, after failure: Errno) {
        do throws(Errno) {
            try state.descriptor.truncate(to: length)
            try state.descriptor.synchronize()
        } catch {
            state.isUnusable = true
            logger.error(
                "could not undo a failed append to the operation log",
                metadata: ["path": "\(path)", "length": "\(length)", "cause": "\(failure)", "error": "\(error)"]
            )
        }
    }

    /// The records for `operations`, back to back in one buffer.
    static func records(for operations: [EncodedOperation]) throws(StoreError) -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(operations.reduce(0) { $0 + LogRecord.headerLength + $1.json.count })
        for operation in operations {
            guard operation.json.count <= maxRecordLength else {
                throw .invalidOperation(
                    operation.id,
                    reason: "its record would be \(operation.json.count) bytes; the limit is \(maxRecordLength)"
                )
            }
            let start = buffer.count
            buffer.append(contentsOf: repeatElement(0, count: LogRecord.headerLength))
            buffer.append(contentsOf: operation.json)
            LogRecord.writeHeader(in: &buffer, at: start)
        }
        return buffer
    }
}
