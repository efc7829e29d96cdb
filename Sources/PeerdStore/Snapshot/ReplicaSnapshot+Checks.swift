import PeerdModel
import SystemPackage

extension ReplicaSnapshot {
    /// The contents of a whole snapshot file, checked against its own checksum and `version`.
    static func contents(of raw: UnsafeRawBufferPointer, version: String) throws(Unused) -> Contents {
        guard raw.count > magic.count + 4, raw.prefix(magic.count).elementsEqual(magic) else {
            throw .torn("not a snapshot of this format")
        }
        let body = UnsafeRawBufferPointer(rebasing: raw[..<(raw.count - 4)])
        let stored = UInt32(
            littleEndian: UnsafeRawBufferPointer(rebasing: raw[(raw.count - 4)...]).loadUnaligned(as: UInt32.self)
        )
        guard CRC32C.checksum(body) == stored else { throw .torn("checksum mismatch") }
        var reader = SnapshotReader(UnsafeRawBufferPointer(rebasing: body[magic.count...]))
        let writer: String
        do throws(SnapshotMalformed) {
            writer = try reader.string()
        } catch {
            throw .torn(error.description)
        }
        guard writer == version else { throw .otherVersion(writer) }
        do throws(SnapshotMalformed) {
            let logLength = Int64(bitPattern: try reader.uint64())
            let tailChecksum = try reader.uint32()
            let parts = try reader.parts()
            guard reader.position == reader.bytes.count else { throw SnapshotMalformed(description: "bytes left over") }
            return Contents(parts: parts, logLength: logLength, tailChecksum: tailChecksum)
        } catch {
            throw .torn(error.description)
        }
    }

    /// Where the last record `parts` hold ends in the log: its offset, its 8-byte header, and the
    /// length the header gives.
    static func coveredLength(of parts: ReplicaParts, logPath: FilePath) throws(StoreError) -> Int64 {
        let last = parts.log.origins.compactMap { $0.offsets.max() }.max()
        guard let last else { return Int64(OperationLog.magic.count) }
        do throws(Errno) {
            let descriptor = try openForReading(logPath)
            defer { try? descriptor.close() }
            let header = try descriptor.readFully(from: Int64(last), count: 4)
            guard header.count == 4 else { throw Errno.ioError }
            let length = header.reduce(0) { $0 << 8 | Int64($1) }
            return Int64(last) + 8 + length
        } catch {
            throw .cannotAccess(logPath, error)
        }
    }

    /// The CRC-32C of the log's last ``tailWindow`` bytes before `length` (after its header).
    static func tailChecksum(of logPath: FilePath, length: Int64) throws(StoreError) -> UInt32 {
        do throws(Errno) {
            let descriptor = try openForReading(logPath)
            defer { try? descriptor.close() }
            let size = try descriptor.stat().size
            guard size >= length, length >= Int64(OperationLog.magic.count) else {
                throw Errno.invalidArgument
            }
            let start = max(Int64(OperationLog.magic.count), length - tailWindow)
            let tail = try descriptor.readFully(from: start, count: Int(length - start))
            guard tail.count == Int(length - start) else { throw Errno.ioError }
            return CRC32C.checksum(tail)
        } catch {
            throw .cannotAccess(logPath, error)
        }
    }

    private static func openForReading(_ path: FilePath) throws(Errno) -> FileDescriptor {
        do {
            return try FileDescriptor.open(path, .readOnly, options: [.closeOnExec])
        } catch {
            throw error as? Errno ?? .ioError
        }
    }
}
