/// CRC-32C (Castagnoli): the checksum of every operation log record.
///
/// Hand-written because none of the store's dependencies (the standard library, swift-system,
/// swift-log, Foundation) exposes CRC-32C, and a 256-entry table is smaller than a new dependency.
/// Parameters: reflected polynomial `0x82F63B78`, initial value and final XOR `0xFFFFFFFF` — the
/// same CRC as iSCSI, ext4 metadata and SSE4.2's `crc32` instruction. Check value:
/// `"123456789"` → `0xE3069283`.
enum CRC32C {
    /// `table[b]` is the CRC register after shifting byte `b` through an all-zero register.
    private static let table: [UInt32] = (0...255).map { (byte: UInt32) in
        var crc = byte
        for _ in 0..<8 {
            crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1
        }
        return crc
    }

    /// The CRC-32C of `bytes`.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            for byte in bytes {
                crc = table[Int(UInt8(truncatingIfNeeded: crc) ^ byte)] ^ (crc >> 8)
            }
        }
        return ~crc
    }

    /// The CRC-32C of `bytes`.
    static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        if let crc = bytes.withContiguousStorageIfAvailable({ checksum(UnsafeRawBufferPointer($0)) }) {
            return crc
        }
        return Array(bytes).withUnsafeBytes { checksum($0) }
    }
}
