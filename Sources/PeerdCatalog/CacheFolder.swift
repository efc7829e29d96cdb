import PeerdStore
package import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The folder of the state directory where what TMDB said is kept (``DetailsCache``,
/// ``CatalogShelf``): small JSON files, each written atomically (``AtomicFile``), mode 0600 in a
/// folder of mode 0700. A file that can't be read back is as good as absent. Every call blocks on
/// the disk: those two make them on the `BlockingPool` only.
package struct CacheFolder: Sendable {
    package let directory: FilePath

    package init(_ directory: FilePath) {
        self.directory = directory
    }

    func read<Entry: Decodable>(_ entry: Entry.Type, named name: String) -> Entry? {
        guard let bytes = try? AtomicFile.read(directory.appending(name)) else { return nil }
        return try? JSONDecoder().decode(entry, from: Data(bytes))
    }

    func write(_ entry: some Encodable, named name: String) throws(CatalogError) {
        let path = directory.appending(name)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        do {
            try makeDirectory()
            try AtomicFile.write(Array(encoder.encode(entry)), to: path)
        } catch let error as StoreError {
            throw .cacheUnwritable(path, reason: error.description)
        } catch {
            throw .cacheUnwritable(path, reason: "\(error)")
        }
    }

    /// The names of the files whose names pass `wanted`, in no order.
    func names(where wanted: (String) -> Bool) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.string)) ?? []).filter(wanted)
    }

    /// `names`, oldest first (by when they were written).
    func oldestFirst(_ names: [String]) -> [String] {
        let files = FileManager.default
        let written = names.map { name in
            let attributes = try? files.attributesOfItem(atPath: directory.appending(name).string)
            return (name, attributes?[.modificationDate] as? Date ?? .distantPast)
        }
        return written.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.0)
    }

    func remove(named name: String) {
        _ = directory.appending(name).withPlatformString { unlink($0) }
    }

    /// The folder, mode 0700, made on first use (its parent, the state directory, exists).
    private func makeDirectory() throws(StoreError) {
        guard directory.withPlatformString({ mkdir($0, 0o700) }) != 0 else { return }
        let error = Errno(rawValue: errno)
        guard error == .fileExists else { throw .cannotAccess(directory, error) }
    }
}
