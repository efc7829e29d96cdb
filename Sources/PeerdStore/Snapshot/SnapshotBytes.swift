import PeerdModel
import SystemPackage

/// The binary form of a snapshot's fields: little-endian integers and strings with a 4-byte
/// length. Hand-written, as the log's records are: a start reads hundreds of thousands of them,
/// and none of our dependencies has a binary form of Swift values (Codable's JSON would be slower
/// than replaying the log it replaces).
struct SnapshotWriter {
    /// What is written and not yet handed to `file`.
    private(set) var bytes: [UInt8] = []
    /// Where the bytes go, a chunk at a time, so a snapshot of any size takes a chunk of memory.
    private let file: FileDescriptor
    /// How many bytes went to `file`, and their CRC-32C.
    private(set) var written: Int64 = 0
    private(set) var checksum: UInt32 = 0
    /// The first error writing to `file`: nothing more is written after it.
    private(set) var failure: Errno?
    static let chunk = 1 << 20

    init(file: FileDescriptor) {
        self.file = file
        bytes.reserveCapacity(Self.chunk + 4096)
    }

    /// Hands what is written to `file`.
    mutating func spill() {
        if failure == nil {
            do throws(Errno) {
                try file.writeFully(bytes, at: written)
            } catch {
                failure = error
            }
        }
        checksum = bytes.withUnsafeBytes { CRC32C.checksum($0, continuing: checksum) }
        written += Int64(bytes.count)
        bytes.removeAll(keepingCapacity: true)
    }

    mutating func put(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        if bytes.count >= Self.chunk { spill() }
    }

    mutating func put(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    mutating func put(_ value: UInt8) { bytes.append(value) }
    mutating func put(_ value: Int64) { put(UInt64(bitPattern: value)) }
    mutating func put(count: Int) { put(UInt32(count)) }

    mutating func put(_ text: String) {
        put(count: text.utf8.count)
        bytes += text.utf8
        if bytes.count >= Self.chunk { spill() }
    }

    mutating func put(_ text: String?) {
        put(UInt8(text == nil ? 0 : 1))
        if let text { put(text) }
    }

    mutating func put(_ id: OperationID) {
        put(id.origin.rawValue)
        put(id.seq)
    }

    /// Appends `count` bytes written by `body`, after their length.
    mutating func putBlock(_ body: (inout [UInt8]) -> Void) {
        let lengthAt = bytes.count
        put(UInt32(0))
        body(&bytes)
        let length = UInt32(bytes.count - lengthAt - 4).littleEndian
        withUnsafeBytes(of: length) { bytes.replaceSubrange(lengthAt..<lengthAt + 4, with: $0) }
        if bytes.count >= Self.chunk { spill() }
    }
}

/// Why a snapshot's bytes could not be read: it is then not used, and the log is replayed.
struct SnapshotMalformed: Error, CustomStringConvertible {
    var description: String
}

/// Reads what ``SnapshotWriter`` wrote, every read checked against the bytes' end.
struct SnapshotReader {
    let bytes: UnsafeRawBufferPointer
    private(set) var position = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func take(_ count: Int) throws(SnapshotMalformed) -> UnsafeRawBufferPointer {
        guard count >= 0, count <= bytes.count - position else { throw SnapshotMalformed(description: "cut short") }
        defer { position += count }
        return UnsafeRawBufferPointer(rebasing: bytes[position..<position + count])
    }

    mutating func uint64() throws(SnapshotMalformed) -> UInt64 {
        UInt64(littleEndian: try take(8).loadUnaligned(as: UInt64.self))
    }

    mutating func uint32() throws(SnapshotMalformed) -> UInt32 {
        UInt32(littleEndian: try take(4).loadUnaligned(as: UInt32.self))
    }

    mutating func uint8() throws(SnapshotMalformed) -> UInt8 { try take(1)[0] }
    mutating func int64() throws(SnapshotMalformed) -> Int64 { Int64(bitPattern: try uint64()) }
    mutating func count() throws(SnapshotMalformed) -> Int { Int(try uint32()) }

    mutating func string() throws(SnapshotMalformed) -> String {
        String(decoding: try take(try count()), as: UTF8.self)
    }

    mutating func optionalString() throws(SnapshotMalformed) -> String? {
        try uint8() == 0 ? nil : try string()
    }

    mutating func peer() throws(SnapshotMalformed) -> PeerID {
        let text = try string()
        guard let peer = PeerID(text) else { throw SnapshotMalformed(description: "not a peer id: \(text.prefix(40))") }
        return peer
    }

    mutating func operationID() throws(SnapshotMalformed) -> OperationID {
        OperationID(origin: try peer(), seq: try uint64())
    }

    /// The bytes of a block ``SnapshotWriter/putBlock(_:)`` wrote.
    mutating func block() throws(SnapshotMalformed) -> UnsafeRawBufferPointer { try take(try count()) }
}
