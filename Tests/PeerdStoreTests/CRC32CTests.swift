import PeerdTestKit
import Testing

@testable import PeerdStore

@Suite("CRC-32C")
struct CRC32CTests {
    @Test func theStandardCheckValueOf123456789IsE3069283() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
    }

    @Test func anEmptyInputChecksToZero() {
        #expect(CRC32C.checksum([UInt8]()) == 0)
    }

    @Test func thirtyTwoZeroBytesMatchTheRFC3720Vector() {
        // iSCSI (RFC 3720, B.4): 32 bytes of zeros -> 0x8A9136AA, 32 bytes of 0xFF -> 0x62A8AB43.
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
    }

    @Test func flippingAnyBitChangesTheChecksum() {
        let bytes = Array("{\"op\":\"add\",\"movie\":{\"id\":603}}".utf8)
        let original = CRC32C.checksum(bytes)
        for index in bytes.indices {
            for bit in 0..<8 {
                var flipped = bytes
                flipped[index] ^= 1 << bit
                #expect(CRC32C.checksum(flipped) != original)
            }
        }
    }

    /// The bit-at-a-time definition, to check the table-driven code against.
    private static func bitwise(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return ~crc
    }

    @Test func everyLengthAndAlignmentMatchesTheBitwiseDefinition() {
        var generator = SplitMix64(seed: 32)
        let data = (0..<300).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for start in 0..<9 {
            for end in start...data.count where (end - start) < 40 || end % 37 == 0 {
                let slice = Array(data[start..<end])
                #expect(CRC32C.checksum(slice) == Self.bitwise(slice), "bytes \(start)..<\(end)")
                let unaligned = data.withUnsafeBytes {
                    CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[start..<end]))
                }
                #expect(unaligned == Self.bitwise(slice), "bytes \(start)..<\(end), in place")
            }
        }
    }

    /// A snapshot is checked as it is written, a chunk at a time: the checksum of the pieces in
    /// turn is the checksum of the whole, wherever it is cut.
    @Test func aChecksumContinuedOverPiecesIsTheChecksumOfTheWhole() {
        var generator = SplitMix64(seed: 7)
        let data = (0..<300).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for cut in [0, 1, 7, 8, 9, 150, 299, 300] {
            let first = data[..<cut].withUnsafeBytes { CRC32C.checksum($0) }
            let whole = data[cut...].withUnsafeBytes { CRC32C.checksum($0, continuing: first) }
            #expect(whole == Self.bitwise(data), "cut at \(cut)")
        }
    }
}
