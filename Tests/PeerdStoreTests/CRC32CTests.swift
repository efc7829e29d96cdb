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
}
