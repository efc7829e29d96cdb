import CZlib

/// ZIPs for the tests, written as zip and Python's zipfile write them: a local header with the sizes (no
/// data descriptor), the data, then the central directory and its end record. Optionally with zip64 sizes
/// (all ones in the 32-bit fields, the real ones in a zip64 extra field of the central directory).
struct ZipWriter {
    enum Method: UInt16 {
        case stored = 0
        case deflated = 8
    }

    private(set) var bytes: [UInt8] = []
    private var directory: [UInt8] = []
    private var count = 0

    /// Adds a file at `path` holding `content`; `unixMode` goes in the external attributes (0o120777: a link).
    mutating func add(
        _ path: String,
        _ content: [UInt8],
        method: Method = .deflated,
        unixMode: UInt32 = 0o100644,
        zip64: Bool = false
    ) {
        let data = method == .deflated ? Self.deflate(content) : content
        let crc = UInt32(content.withUnsafeBufferPointer { CZlib.crc32(0, $0.baseAddress, UInt32($0.count)) })
        let name = Array(path.utf8)
        let offset = bytes.count
        let sizes: [UInt32] = zip64 ? [0xFFFF_FFFF, 0xFFFF_FFFF] : [UInt32(data.count), UInt32(content.count)]
        // Local header: signature, version 20, flags (bit 11: UTF-8 names), method, time, date, CRC, sizes.
        bytes += le(0x0403_4B50, 4) + le(20, 2) + le(0x0800, 2) + le(UInt64(method.rawValue), 2) + le(0, 4)
        bytes += le(UInt64(crc), 4) + le(UInt64(sizes[0]), 4) + le(UInt64(sizes[1]), 4)
        bytes += le(UInt64(name.count), 2) + le(0, 2) + name + data
        let extra =
            zip64
            ? le(1, 2) + le(24, 2) + le(UInt64(content.count), 8) + le(UInt64(data.count), 8)
                + le(UInt64(offset), 8) : []
        // Central directory header: made by Unix (3) version 20, then as the local header, then the rest.
        directory += le(0x0201_4B50, 4) + le(0x0314, 2) + le(20, 2) + le(0x0800, 2) + le(UInt64(method.rawValue), 2)
        directory += le(0, 4) + le(UInt64(crc), 4) + le(UInt64(sizes[0]), 4) + le(UInt64(sizes[1]), 4)
        directory += le(UInt64(name.count), 2) + le(UInt64(extra.count), 2) + le(0, 2) + le(0, 2) + le(0, 2)
        directory += le(UInt64(unixMode) << 16, 4) + le(zip64 ? 0xFFFF_FFFF : UInt64(offset), 4) + name + extra
        count += 1
    }

    /// The whole archive: the entries, the central directory and its end record.
    func archive() -> [UInt8] {
        bytes + directory + le(0x0605_4B50, 4) + le(0, 4) + le(UInt64(count), 2) + le(UInt64(count), 2)
            + le(UInt64(directory.count), 4) + le(UInt64(bytes.count), 4) + le(0, 2)
    }

    /// Raw deflate (no zlib header), as a ZIP holds it.
    static func deflate(_ content: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        let size = Int32(MemoryLayout<z_stream>.size)
        deflateInit2_(&stream, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, size)
        defer { deflateEnd(&stream) }
        var input = content
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(content.count))))
        let written = input.withUnsafeMutableBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                stream.next_in = input.baseAddress
                stream.avail_in = UInt32(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = UInt32(output.count)
                precondition(CZlib.deflate(&stream, Z_FINISH) == Z_STREAM_END)
                return output.count - Int(stream.avail_out)
            }
        }
        return Array(output[..<written])
    }

    private func le(_ value: UInt64, _ size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
