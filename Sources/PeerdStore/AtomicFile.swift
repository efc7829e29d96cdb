package import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Small files that are always replaced whole (identity, static peers), so that a crash leaves
/// either the old content or the new one, never a mix.
package enum AtomicFile {
    /// Files peerd writes this way are a few kilobytes; anything past this is not one of them.
    static let sizeLimit = 1 << 20

    /// Replaces `path` with `bytes`: writes `.<name>.tmp` beside it (mode 0600), flushes it,
    /// renames it over `path`, then flushes the directory so the rename itself is durable.
    package static func write(_ bytes: [UInt8], to path: FilePath) throws(StoreError) {
        try write(to: path) { descriptor throws(Errno) in try descriptor.writeFully(bytes, at: 0) }
    }

    /// Replaces `path` with what `fill` writes to the descriptor it is given, as
    /// ``write(_:to:)`` does: a file too large to make in memory first (a replica's snapshot).
    package static func write(to path: FilePath, _ fill: (FileDescriptor) throws(Errno) -> Void) throws(StoreError) {
        let temporary = path.directory.appending(".\(path.lastComponent?.string ?? "file").tmp")
        do throws(Errno) {
            let descriptor: FileDescriptor
            do {
                descriptor = try FileDescriptor.open(
                    temporary,
                    .writeOnly,
                    options: [.create, .truncate, .closeOnExec],
                    permissions: [.ownerReadWrite]
                )
            } catch {
                throw error as? Errno ?? .ioError
            }
            defer { try? descriptor.close() }
            try fill(descriptor)
            try descriptor.synchronize()
            try move(temporary, over: path)
            try FileDescriptor.synchronizeDirectory(path.directory)
        } catch {
            temporary.removeFileIfPresent()
            throw .writeFailed(path, error)
        }
    }

    /// The whole content of `path`, or nil if there is no such file; one over `limit` bytes is
    /// refused as corrupt.
    package static func read(_ path: FilePath, limit: Int = sizeLimit) throws(StoreError) -> [UInt8]? {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec])
        } catch Errno.noSuchFileOrDirectory {
            return nil
        } catch {
            throw .cannotAccess(path, error as? Errno ?? .ioError)
        }
        defer { try? descriptor.close() }
        let size: Int64
        do throws(Errno) {
            size = try descriptor.stat().size
        } catch {
            throw .cannotAccess(path, error)
        }
        guard size <= limit else {
            throw .corruptFile(path, reason: "it is \(size) bytes, far larger than any file peerd writes there")
        }
        do throws(Errno) {
            return try descriptor.readFully(from: 0, count: Int(size))
        } catch {
            throw .cannotAccess(path, error)
        }
    }

    private static func move(_ source: FilePath, over target: FilePath) throws(Errno) {
        let result = source.withPlatformString { source in
            target.withPlatformString { target in rename(source, target) }
        }
        if result != 0 { throw Errno(rawValue: errno) }
    }
}
