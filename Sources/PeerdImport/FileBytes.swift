#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of the file to import, read only when it is small enough: a file's size is found by
/// seeking to its end before anything is read, and what can't seek (a pipe, `/dev/stdin`) is read in
/// chunks until it ends or passes the limit.
enum FileBytes {
    static func contents(of path: String, limit: Int) throws(ImportError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotRead(path: path, reason: systemReason()) }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw .cannotRead(path: path, reason: "it is a folder")
        }
        let size = lseek(descriptor, 0, SEEK_END)
        if size >= 0 {
            guard size <= limit else { throw .fileTooLarge(path: path, bytes: Int(size), limit: limit) }
            guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw .cannotRead(path: path, reason: systemReason()) }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(max(0, Int(size)))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .cannotRead(path: path, reason: systemReason()) }
            guard count > 0 else { return bytes }
            bytes.append(contentsOf: chunk[..<count])
            guard bytes.count <= limit else { throw .fileTooLarge(path: path, bytes: bytes.count, limit: limit) }
        }
    }

    private static func systemReason() -> String { String(cString: strerror(errno)) }
}
