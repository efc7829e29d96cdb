/// The central directory of a ZIP held in memory: what each entry is and where its bytes are
/// (PKWARE's APPNOTE.TXT, sections 4.3.12 to 4.3.16; zip64 sizes and offsets included).
///
/// ```
/// end of central directory record, the last 22 bytes before an archive comment of up to 65,535:
///   0 50 4B 05 06 | 4 disk u16 | 6 disk of the directory u16 | 8 entries on this disk u16
///   10 entries u16 | 12 directory size u32 | 16 directory offset u32 | 20 comment length u16
/// zip64 locator, the 20 bytes before it (when a count or offset above is all ones):
///   0 50 4B 06 07 | 4 disk u32 | 8 offset of the zip64 end record u64 | 16 disks u32
/// zip64 end record: 0 50 4B 06 06 | … | 32 entries u64 | 40 directory size u64 | 48 directory offset u64
/// central directory header, one an entry, 46 bytes and then the name, extra fields, comment:
///   0 50 4B 01 02 | 4 made by u16 (high byte: 3 is Unix) | 8 flags u16 | 10 method u16 | 16 CRC-32 u32
///   20 compressed size u32 | 24 uncompressed size u32 | 28 name length u16 | 30 extra length u16
///   32 comment length u16 | 38 external attributes u32 (Unix: the mode in the high half) | 42 offset u32
/// ```
/// Every number is little-endian; every offset and length is checked against the bytes before it is used.
struct ZipDirectory {
    /// The entries in the directory's order.
    let entries: [ZipEntry]

    /// Why the bytes are not a ZIP this reader can list, in words for ``ImportError/damagedZIP(place:reason:)``;
    /// or, for `tooManyEntries`, a directory longer than the limit.
    enum Failure: Error {
        case damaged(String)
        case tooManyEntries
    }

    init(_ bytes: [UInt8], maxEntries: Int) throws(Failure) {
        var (count, size, offset) = try Self.endRecord(bytes)
        guard count <= maxEntries else { throw .tooManyEntries }
        guard offset <= bytes.count, size <= bytes.count - offset else {
            throw .damaged("its central directory lies outside the file")
        }
        var entries: [ZipEntry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            let (entry, length) = try ZipEntry.read(bytes, at: offset)
            entries.append(entry)
            offset += length
        }
        self.entries = entries
    }

    /// The entry count, size and offset of the central directory, from the end record (or its zip64 one).
    private static func endRecord(_ bytes: [UInt8]) throws(Failure) -> (count: Int, size: Int, offset: Int) {
        let lowest = max(0, bytes.count - 22 - 0xFFFF)
        guard bytes.count >= 22,
            let end = (lowest...(bytes.count - 22)).reversed().first(where: { bytes.has(0x0605_4B50, at: $0) })
        else { throw .damaged("it has no end of central directory record") }
        let count = bytes.littleEndian(at: end + 10, size: 2)
        let size = bytes.littleEndian(at: end + 12, size: 4)
        let offset = bytes.littleEndian(at: end + 16, size: 4)
        guard count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF else {
            return (Int(count), Int(size), Int(offset))
        }
        guard end >= 20, bytes.has(0x0706_4B50, at: end - 20),
            let record = Int(exactly: bytes.littleEndian(at: end - 12, size: 8)),
            record <= bytes.count - 56, bytes.has(0x0606_4B50, at: record),
            let count64 = Int(exactly: bytes.littleEndian(at: record + 32, size: 8)),
            let size64 = Int(exactly: bytes.littleEndian(at: record + 40, size: 8)),
            let offset64 = Int(exactly: bytes.littleEndian(at: record + 48, size: 8))
        else { throw .damaged("its zip64 end record is missing or damaged") }
        return (count64, size64, offset64)
    }
}

/// One entry of a ``ZipDirectory``, as its central directory header describes it.
struct ZipEntry {
    enum Kind { case file, folder, link }

    let path: String
    let kind: Kind
    /// 0 stored, 8 deflated; anything else this reader refuses.
    let method: Int
    /// Bit 0: encrypted.
    let flags: Int
    let checksum: UInt32
    let compressedSize: UInt64
    let uncompressedSize: UInt64
    /// Where the entry's local header starts.
    let localHeaderOffset: UInt64

    var isEncrypted: Bool { flags & 1 != 0 }

    /// The entry whose central directory header starts at `offset`, and the header's length.
    static func read(_ bytes: [UInt8], at offset: Int) throws(ZipDirectory.Failure) -> (ZipEntry, Int) {
        guard offset <= bytes.count - 46, bytes.has(0x0201_4B50, at: offset) else {
            throw .damaged("its central directory is damaged")
        }
        func field(_ at: Int, _ size: Int) -> UInt64 { bytes.littleEndian(at: offset + at, size: size) }
        let nameLength = Int(field(28, 2))
        let extraLength = Int(field(30, 2))
        let length = 46 + nameLength + extraLength + Int(field(32, 2))
        guard length <= bytes.count - offset else { throw .damaged("its central directory is damaged") }
        let name = String(decoding: bytes[offset + 46..<offset + 46 + nameLength], as: UTF8.self)
        var sizes = Sizes(uncompressed: field(24, 4), compressed: field(20, 4), offset: field(42, 4))
        try readZip64(bytes[(offset + 46 + nameLength)..<(offset + 46 + nameLength + extraLength)], into: &sizes)
        let entry = ZipEntry(
            path: name,
            kind: kind(name: name, madeBy: Int(field(4, 2)), attributes: UInt32(field(38, 4))),
            method: Int(field(10, 2)),
            flags: Int(field(8, 2)),
            checksum: UInt32(field(16, 4)),
            compressedSize: sizes.compressed,
            uncompressedSize: sizes.uncompressed,
            localHeaderOffset: sizes.offset
        )
        return (entry, length)
    }

    /// A folder when its name ends in `/` or its attributes say so (MS-DOS's bit 4, or a Unix mode),
    /// a link by its Unix mode; a file otherwise.
    private static func kind(name: String, madeBy: Int, attributes: UInt32) -> Kind {
        if name.hasSuffix("/") { return .folder }
        guard madeBy >> 8 == 3 else { return attributes & 0x10 != 0 ? .folder : .file }
        switch (attributes >> 16) & 0o170000 {
        case 0o040000: return .folder
        case 0o120000: return .link
        default: return .file
        }
    }

    /// The zip64 extra field (id 1) holds, in this order, the sizes and offset whose 32-bit fields are all ones.
    private static func readZip64(_ extra: ArraySlice<UInt8>, into sizes: inout Sizes) throws(ZipDirectory.Failure) {
        let extra = Array(extra)
        var at = 0
        while at + 4 <= extra.count {
            let size = Int(extra.littleEndian(at: at + 2, size: 2))
            guard extra.littleEndian(at: at, size: 2) == 1 else {
                at += 4 + size
                continue
            }
            var value = at + 4
            for field in [\Sizes.uncompressed, \.compressed, \.offset] where sizes[keyPath: field] == 0xFFFF_FFFF {
                guard value + 8 <= min(at + 4 + size, extra.count) else {
                    throw .damaged("an entry's zip64 sizes are damaged")
                }
                sizes[keyPath: field] = extra.littleEndian(at: value, size: 8)
                value += 8
            }
            return
        }
    }

    private struct Sizes {
        var uncompressed: UInt64
        var compressed: UInt64
        var offset: UInt64
    }
}

extension [UInt8] {
    /// The `size`-byte little-endian number at `offset`; the caller has checked that it lies inside.
    func littleEndian(at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in (0..<size).reversed() { value = value << 8 | UInt64(self[offset + index]) }
        return value
    }

    /// Whether the 4-byte signature `signature` (as a little-endian number) is at `offset`.
    func has(_ signature: UInt32, at offset: Int) -> Bool {
        offset >= 0 && offset <= count - 4 && littleEndian(at: offset, size: 4) == UInt64(signature)
    }
}
