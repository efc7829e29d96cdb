import CZlib

/// Raw deflate (RFC 1951, a ZIP entry's method 8) inflated through the system's zlib, counted as it comes
/// out so that a bomb stops within one chunk past its limit, whatever its header said.
enum Inflater {
    enum Failure: Error {
        /// More than the limit came out; `inflated` is how much before it stopped.
        case pastLimit(inflated: Int)
        /// zlib's reason, or that the data ended before the deflate stream did.
        case damaged(String)
    }

    /// The bytes `deflated` inflates to, at most `limit` of them; `expected` (the header's size) only
    /// sizes the first allocation.
    static func inflate(_ deflated: ArraySlice<UInt8>, expected: Int, limit: Int) throws(Failure) -> [UInt8] {
        guard deflated.count <= Int(UInt32.max) else { throw .damaged("an entry is too large") }
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .damaged("zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        output.reserveCapacity(min(expected, limit))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var input = Array(deflated)
        let code = input.withUnsafeMutableBufferPointer { input in
            stream.next_in = input.baseAddress
            stream.avail_in = UInt32(input.count)
            while true {
                let (code, produced) = chunk.withUnsafeMutableBufferPointer { chunk in
                    stream.next_out = chunk.baseAddress
                    stream.avail_out = UInt32(chunk.count)
                    let code = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (code, chunk.count - Int(stream.avail_out))
                }
                output += chunk[..<produced]
                if output.count > limit || code != Z_OK { return code }
            }
        }
        if output.count > limit { throw .pastLimit(inflated: output.count) }
        switch code {
        case Z_STREAM_END: return output
        case Z_BUF_ERROR: throw .damaged("an entry's deflated data ends too soon")
        default:
            let reason = stream.msg.map { String(cString: $0) } ?? "zlib's code \(code)"
            throw .damaged("an entry's deflated data is corrupt (\(reason))")
        }
    }

    /// The CRC-32 of `bytes`, as a ZIP's headers hold it.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            var crc: UInt = 0
            var offset = 0
            while offset < buffer.count {
                let count = min(buffer.count - offset, Int(UInt32.max))
                crc = CZlib.crc32(crc, buffer.baseAddress! + offset, UInt32(count))
                offset += count
            }
            return UInt32(truncatingIfNeeded: crc)
        }
    }
}
