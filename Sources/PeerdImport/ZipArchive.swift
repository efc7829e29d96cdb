import Foundation
import ZIPFoundation

/// A ZIP export (Letterboxd's, Trakt's), read in memory with ZIPFoundation and never unpacked to disk.
///
/// Bounded against ZIP bombs: at most ``ImportLimits/maxEntries`` entries are listed; an entry is read
/// only when asked for, refused when its header says it is larger than ``ImportLimits/maxEntryBytes``,
/// and its bytes are counted as they are inflated, so that reading stops past the limit even when the
/// header lied. Each entry's CRC-32 is checked.
struct ZipArchive {
    /// The ZIP file, as errors name it.
    let place: String
    /// The paths of its files (not folders or links), in the archive's order.
    let paths: [String]
    private let archive: Archive
    private let entries: [String: Entry]
    private let maxEntryBytes: Int

    /// Whether `bytes` start as a ZIP does: a local file header, or the end record of an empty one.
    static func isZIP(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06])
    }

    init(_ bytes: [UInt8], place: String, limits: ImportLimits) throws(ImportError) {
        self.place = place
        maxEntryBytes = limits.maxEntryBytes
        do {
            archive = try Archive(data: Data(bytes), accessMode: .read)
        } catch {
            throw .damagedZIP(place: place, reason: "\(error)")
        }
        var paths: [String] = []
        var entries: [String: Entry] = [:]
        var count = 0
        for entry in archive {
            count += 1
            guard count <= limits.maxEntries else { throw .tooManyEntries(place: place, limit: limits.maxEntries) }
            guard entry.type == .file, entries[entry.path] == nil else { continue }
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
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(entry.uncompressedSize))
        var inflated = 0
        let limit = maxEntryBytes
        let checksum: CRC32
        do {
            checksum = try archive.extract(entry) { chunk in
                inflated += chunk.count
                guard inflated <= limit else { throw PastLimit() }
                bytes.append(contentsOf: chunk)
            }
        } catch is PastLimit {
            throw .entryInflatesTooFar(place: entryPlace, inflated: inflated, limit: limit)
        } catch {
            throw .damagedZIP(place: entryPlace, reason: "\(error)")
        }
        guard checksum == entry.checksum else {
            throw .damagedZIP(place: entryPlace, reason: "its CRC-32 does not match its content")
        }
        return bytes
    }

    private struct PastLimit: Error {}
}
