import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file operations the store needs beyond swift-system: whole reads and writes that
/// survive partial transfers and `EINTR`, `ftruncate`, `fsync` and `flock`, all throwing `Errno`.
extension FileDescriptor {
    /// Writes every byte of `bytes` starting at `offset`, looping over partial writes and `EINTR`.
    func writeFully(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(Errno) {
        var written = 0
        while written < bytes.count {
            let count: Int
            do {
                count = try write(
                    toAbsoluteOffset: offset + Int64(written),
                    UnsafeRawBufferPointer(rebasing: bytes[written...]),
                    retryOnInterrupt: true
                )
            } catch {
                throw error as? Errno ?? .ioError
            }
            // A regular file never accepts zero bytes of a non-empty write; don't spin if one does.
            guard count > 0 else { throw .ioError }
            written += count
        }
    }

    /// Writes every byte of `bytes` (an array or a slice of one) starting at `offset`.
    func writeFully(_ bytes: some Collection<UInt8>, at offset: Int64) throws(Errno) {
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(Errno) in try writeFully(UnsafeRawBufferPointer(buffer), at: offset) }
        }
        guard let result else { return try writeFully(Array(bytes), at: offset) }
        try result.get()
    }

    /// Reads `count` bytes starting at `offset`, or fewer if the file ends first.
    func readFully(from offset: Int64, count: Int) throws(Errno) -> [UInt8] {
        var failure: Errno?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            do throws(Errno) {
                initialized = try readFully(into: UnsafeMutableRawBufferPointer(buffer), from: offset)
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Fills `buffer` from the file starting at `offset`, looping over partial reads and `EINTR`;
    /// returns how many bytes were read, fewer than the buffer holds only if the file ended first.
    func readFully(into buffer: UnsafeMutableRawBufferPointer, from offset: Int64) throws(Errno) -> Int {
        var filled = 0
        while filled < buffer.count {
            let got: Int
            do {
                got = try read(
                    fromAbsoluteOffset: offset + Int64(filled),
                    into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]),
                    retryOnInterrupt: true
                )
            } catch {
                throw error as? Errno ?? .ioError
            }
            if got == 0 { break }
            filled += got
        }
        return filled
    }

    /// Flushes the file's data and metadata to the disk (`fsync`).
    func synchronize() throws(Errno) {
        while fsync(rawValue) != 0 {
            let error = Errno(rawValue: errno)
            if error != .interrupted { throw error }
        }
    }

    /// Takes an exclusive advisory lock (`flock`) without waiting. Returns false if another open
    /// file description holds it. The lock lasts until this descriptor is closed.
    func tryLockExclusively() throws(Errno) -> Bool {
        while flock(rawValue, LOCK_EX | LOCK_NB) != 0 {
            let error = Errno(rawValue: errno)
            if error == .wouldBlock { return false }
            if error != .interrupted { throw error }
        }
        return true
    }

    /// Flushes a directory, so that files just created or renamed in it survive a power loss.
    static func synchronizeDirectory(_ directory: FilePath) throws(Errno) {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(directory, .readOnly, options: [.directory, .closeOnExec])
        } catch {
            throw error as? Errno ?? .ioError
        }
        defer { try? descriptor.close() }
        try descriptor.synchronize()
    }

    /// Opens `path` to read and write, creating it (mode 0600) if it is missing: the log, the lock
    /// and imports' journals.
    static func openOrCreate(_ path: FilePath) throws(StoreError) -> FileDescriptor {
        do {
            return try FileDescriptor.open(
                path,
                .readWrite,
                options: [.create, .closeOnExec],
                permissions: [.ownerReadWrite]
            )
        } catch {
            throw .cannotAccess(path, error as? Errno ?? .ioError)
        }
    }

    /// Cuts the file to `length` bytes (`ftruncate`).
    func truncate(to length: Int64) throws(Errno) {
        do {
            try resize(to: length)
        } catch {
            throw error as? Errno ?? .ioError
        }
    }
}

extension FilePath {
    /// Deletes the file, ignoring any error: used to clean up a temporary file after a failure.
    package func removeFileIfPresent() {
        _ = withPlatformString { unlink($0) }
    }
}
