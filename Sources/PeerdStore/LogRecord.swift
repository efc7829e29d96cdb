import PeerdCodec
import PeerdModel

/// One record of the operation log: a header with the payload's length and checksum, then the
/// payload, an `Operation` as JSON.
///
/// ```
///  0                   4                   8
///  +-------------------+-------------------+---------------------------+
///  | length N (u32 BE) | CRC-32C (u32 BE)  | payload: N bytes of JSON  |
///  +-------------------+-------------------+---------------------------+
/// ```
///
/// `N` is 1 through `maxPayloadLength`; the CRC-32C covers the payload only. A length outside
/// that range is rejected from the header alone, before anything is allocated for the payload.
enum LogRecord {
    static let headerLength = 8
    /// 4 MiB: far above any valid operation (a removal names at most 10,000 adds).
    static let maxPayloadLength = 4 << 20

    /// Appends one record holding `payload` to `buffer`.
    static func append(payload: UnsafeRawBufferPointer, to buffer: inout [UInt8]) {
        appendBigEndian(UInt32(payload.count), to: &buffer)
        appendBigEndian(CRC32C.checksum(payload), to: &buffer)
        buffer.append(contentsOf: payload)
    }

    /// What reading a run of records found.
    struct Scan {
        /// How many intact records were read.
        var count = 0
        /// Bytes from the start of the scanned run up to the end of the last intact record.
        var intactLength = 0
        /// Why the record at `intactLength` was refused, or nil if every record was intact (or
        /// the rest is the start of a record whose end is not in the run yet, see `isEnd`).
        var failure: Recovery.Reason?
        /// When the run stopped inside a record that is not damaged so far: the bytes it needs,
        /// counted from `intactLength`.
        var needs: Int?
    }

    /// Reads records from `bytes`, handing each operation to `read`, until the end or the first
    /// damaged record. When `isEnd` is false the bytes are a window on a longer file, and a record
    /// cut off by the window's end is left for the next window (`needs`) instead of being torn.
    /// Never traps and never allocates more than the input for any header content.
    static func scan(
        _ bytes: UnsafeRawBufferPointer,
        isEnd: Bool = true,
        reader: inout OperationJSONReader,
        _ read: (Operation, _ recordStart: Int) -> Void
    ) -> Scan {
        var scan = Scan()
        var offset = 0
        while offset < bytes.count {
            let available = bytes.count - offset
            guard available >= headerLength else {
                if isEnd { scan.failure = .tornHeader(available: available) } else { scan.needs = headerLength }
                break
            }
            let length = readBigEndian(bytes, at: offset)
            let stored = readBigEndian(bytes, at: offset + 4)
            guard length > 0, length <= maxPayloadLength else {
                scan.failure = .badLength(length)
                break
            }
            let payloadStart = offset + headerLength
            guard available - headerLength >= Int(length) else {
                if isEnd {
                    scan.failure = .tornPayload(expected: Int(length), available: available - headerLength)
                } else {
                    scan.needs = headerLength + Int(length)
                }
                break
            }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[payloadStart..<payloadStart + Int(length)])
            let computed = CRC32C.checksum(payload)
            guard computed == stored else {
                scan.failure = .checksumMismatch(stored: stored, computed: computed)
                break
            }
            do {
                read(try reader.decode(payload), offset)
            } catch {
                scan.failure = .undecodable(summary(of: error))
                break
            }
            scan.count += 1
            offset = payloadStart + Int(length)
            scan.intactLength = offset
        }
        return scan
    }

    /// A one-line reason for a decoding failure, without the decoder's long context dump.
    private static func summary(of error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
            .valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    /// Fills in the header of the record whose payload follows it at `start` and runs to the end
    /// of `buffer`.
    static func writeHeader(in buffer: inout [UInt8], at start: Int) {
        let payloadStart = start + headerLength
        let checksum = buffer.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[payloadStart...])) }
        storeBigEndian(UInt32(buffer.count - payloadStart), in: &buffer, at: start)
        storeBigEndian(checksum, in: &buffer, at: start + 4)
    }

    private static func storeBigEndian(_ value: UInt32, in buffer: inout [UInt8], at offset: Int) {
        for index in 0..<4 { buffer[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
    }

    static func readBigEndian(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    static func appendBigEndian(_ value: UInt32, to buffer: inout [UInt8]) {
        buffer.append(UInt8(truncatingIfNeeded: value >> 24))
        buffer.append(UInt8(truncatingIfNeeded: value >> 16))
        buffer.append(UInt8(truncatingIfNeeded: value >> 8))
        buffer.append(UInt8(truncatingIfNeeded: value))
    }
}
