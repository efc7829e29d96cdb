import Synchronization
package import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What one import has done so far: `<state-dir>/imports/<id>.journal` (mode 0600), one line per row
/// the import finished, appended and flushed after the row's operations are on disk. Running the
/// same file again (same id: its SHA-256) reads it back and skips those rows, so an import killed
/// halfway continues, and one run twice adds nothing. The lines are the daemon's (JSON); a crash
/// can leave the last one torn, which is cut off when the journal is opened.
///
/// `Sendable` without `@unchecked`: the descriptor and the end offset live in a `Mutex`.
package final class ImportJournal: Sendable {
    /// A journal past this is not one peerctl's limits can make (20,000 rows of a few hundred bytes).
    static let sizeLimit: Int64 = 64 << 20

    package let path: FilePath
    private let state: Mutex<(descriptor: FileDescriptor, end: Int64)>

    private static let folderName = "imports"

    /// Where the journal of import `id` is under the state directory `directory`.
    private static func path(in directory: FilePath, id: String) -> FilePath {
        directory.appending(folderName).appending("\(id).journal")
    }

    /// Opens (or creates) the journal of import `id` under `directory`, and returns its whole lines.
    package static func open(in directory: FilePath, id: String) throws(StoreError) -> (ImportJournal, [[UInt8]]) {
        let folder = directory.appending(folderName)
        if folder.withPlatformString({ mkdir($0, 0o700) }) != 0, errno != EEXIST {
            throw .cannotAccess(folder, Errno(rawValue: errno))
        }
        let path = path(in: directory, id: id)
        let descriptor = try FileDescriptor.openOrCreate(path)
        do throws(StoreError) {
            let (lines, intact) = try read(descriptor, path)
            return (ImportJournal(path: path, descriptor: descriptor, end: intact), lines)
        } catch {
            try? descriptor.close()
            throw error
        }
    }

    /// The whole lines of import `id`'s journal, without creating it (or cutting a torn end): what
    /// a dry run reads. Empty when there is none.
    package static func lines(in directory: FilePath, id: String) throws(StoreError) -> [[UInt8]] {
        let path = path(in: directory, id: id)
        guard let bytes = try AtomicFile.read(path, limit: Int(sizeLimit)) else { return [] }
        return wholeLines(bytes).lines
    }

    /// The lines before the last newline, and how many bytes they take: what a torn end leaves.
    private static func wholeLines(_ bytes: [UInt8]) -> (lines: [[UInt8]], intact: Int) {
        let intact = bytes.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        return (bytes[..<intact].split(separator: UInt8(ascii: "\n")).map(Array.init), intact)
    }

    private init(path: FilePath, descriptor: FileDescriptor, end: Int64) {
        self.path = path
        self.state = Mutex((descriptor, end))
    }

    deinit {
        state.withLock { try? $0.descriptor.close() }
    }

    /// The lines up to the last newline; a torn end after it is cut off the file.
    private static func read(_ descriptor: FileDescriptor, _ path: FilePath) throws(StoreError) -> ([[UInt8]], Int64) {
        do throws(Errno) {
            let size = try descriptor.stat().size
            guard size <= sizeLimit else { throw Errno.fileTooLarge }
            let bytes = try descriptor.readFully(from: 0, count: Int(size))
            let (lines, intact) = wholeLines(bytes)
            if intact < bytes.count {
                try descriptor.truncate(to: Int64(intact))
                try descriptor.synchronize()
            }
            return (lines, Int64(intact))
        } catch {
            throw .cannotAccess(path, error)
        }
    }

    /// Appends `lines` (each without its newline) and flushes them.
    package func append(_ lines: [[UInt8]]) throws(StoreError) {
        guard !lines.isEmpty else { return }
        let bytes = lines.flatMap { $0 + [UInt8(ascii: "\n")] }
        try state.withLock { (state) throws(StoreError) in
            do throws(Errno) {
                try state.descriptor.writeFully(bytes, at: state.end)
                try state.descriptor.synchronize()
                state.end += Int64(bytes.count)
            } catch {
                // What was written past the old end is cut off again: a line is whole or absent.
                try? state.descriptor.truncate(to: state.end)
                throw .writeFailed(path, error)
            }
        }
    }
}
