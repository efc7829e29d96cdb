// Hand-written rather than ZIPFoundation: that package imports all of Foundation, and a static peerctl then
// carries ICU's data (peerctl 63.1 MB with Foundation, 17.9 MB without, measured). An export needs only listing
// entries and inflating a few.

/// A ZIP export (Letterboxd's, Trakt's), read in memory and never unpacked to disk: entry paths are only names
/// to match (``LetterboxdFormat``, ``TraktFormat``), so a path with `..` or `/` at its start reaches nothing.
///
/// Bounded against ZIP bombs: at most ``ImportLimits/maxEntries`` entries are listed; an entry is read
/// only when asked for, refused when its header says it is larger than ``ImportLimits/maxEntryBytes``,
/// and its bytes are counted as they are inflated, so that reading stops past the limit even when the
/// header lied; the entries read are at most ``ImportLimits/maxArchiveBytes`` together, so that many
/// small entries sharing one run of deflated bytes can't add up. Each entry's CRC-32 and size are checked. Stored and deflated entries are read; zip64
/// sizes too; an encrypted entry, or another method, is a damaged ZIP.
struct ZipArchive {
    /// The ZIP file, as errors name it.
    let place: String
    /// The paths of its files (not folders or links), in the archive's order.
    let paths: [String]
    private let bytes: [UInt8]
    private let entries: [String: ZipEntry]
    private let maxEntryBytes: Int
    private let maxArchiveBytes: Int
    /// The bytes of the entries read so far, all together (a class: reading doesn't change the archive).
    private let unpacked = Unpacked()

    private final class Unpacked {
        var bytes = 0
    }

    /// Whether `bytes` start as a ZIP does: a local file header, or the end record of an empty one.
    static func isZIP(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06])
    }

    init(_ bytes: [UInt8], place: String, limits: ImportLimits) throws(ImportError) {
        self.place = place
        self.bytes = bytes
        maxEntryBytes = limits.maxEntryBytes
        maxArchiveBytes = limits.maxArchiveBytes
        let directory: ZipDirectory
        do throws(ZipDirectory.Failure) {
            directory = try ZipDirectory(bytes, maxEntries: limits.maxEntries)
        } catch {
            switch error {
            case .tooManyEntries: throw .tooManyEntries(place: place, limit: limits.maxEntries)
            case .damaged(let reason): throw .damagedZIP(place: place, reason: reason)
            }
        }
        var paths: [String] = []
        var entries: [String: ZipEntry] = [:]
        for entry in directory.entries where entry.kind == .file && entries[entry.path] == nil {
            paths.append(entry.path)
            entries[entry.path] = entry
        }
        self.paths = paths
        self.entries = entries
    }

    /// The bytes of the file at `path` (one of ``paths``).
    func read(_ path: String) throws(ImportError) -> [UInt8] {
        guard let entry = entries[path] else { return [] }
        let entryPlace = "\(place): \(path)"
        guard entry.uncompressedSize <= UInt64(maxEntryBytes) else {
            throw .entryTooLarge(place: entryPlace, declared: entry.uncompressedSize, limit: maxEntryBytes)
        }
        // Checked before inflating: what is inflated must come to the header's size, or it is refused.
        guard UInt64(unpacked.bytes) + entry.uncompressedSize <= UInt64(maxArchiveBytes) else {
            throw .archiveTooLarge(place: place, limit: maxArchiveBytes)
        }
        unpacked.bytes += Int(entry.uncompressedSize)
        let content: [UInt8]
        do throws(Inflater.Failure) {
            content = try inflate(entry, data: data(of: entry))
        } catch {
            switch error {
            case .pastLimit(let inflated):
                throw .entryInflatesTooFar(place: entryPlace, inflated: inflated, limit: maxEntryBytes)
            case .damaged(let reason): throw .damagedZIP(place: entryPlace, reason: reason)
            }
        }
        guard content.count == entry.uncompressedSize else {
            let reason = "it unpacks to \(content.count) bytes where its header says \(entry.uncompressedSize)"
            throw .damagedZIP(place: entryPlace, reason: reason)
        }
        guard Inflater.crc32(content) == entry.checksum else {
            throw .damagedZIP(place: entryPlace, reason: "its CRC-32 does not match its content")
        }
        return content
    }

    /// The entry's bytes as stored, after its local header (30 bytes, then its own name and extra field).
    private func data(of entry: ZipEntry) throws(Inflater.Failure) -> ArraySlice<UInt8> {
        guard let header = Int(exactly: entry.localHeaderOffset), header <= bytes.count - 30,
            bytes.has(0x0403_4B50, at: header)
        else { throw .damaged("its local header is missing") }
        let start =
            header + 30 + Int(bytes.littleEndian(at: header + 26, size: 2))
            + Int(bytes.littleEndian(at: header + 28, size: 2))
        guard let size = Int(exactly: entry.compressedSize), start <= bytes.count, size <= bytes.count - start else {
            throw .damaged("its data lies outside the file")
        }
        return bytes[start..<start + size]
    }

    private func inflate(_ entry: ZipEntry, data: ArraySlice<UInt8>) throws(Inflater.Failure) -> [UInt8] {
        guard !entry.isEncrypted else { throw .damaged("it is encrypted") }
        switch entry.method {
        case 0:
            guard data.count <= maxEntryBytes else { throw .pastLimit(inflated: data.count) }
            return Array(data)
        case 8:
            return try Inflater.inflate(data, expected: Int(entry.uncompressedSize), limit: maxEntryBytes)
        default:
            throw .damaged("it is compressed with method \(entry.method), where peerd reads stored and deflated")
        }
    }
}
