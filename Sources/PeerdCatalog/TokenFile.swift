import SystemPackage

/// Reading a token file: only its owner may read it.
enum TokenFile {
    static func exists(_ path: FilePath) -> Bool {
        (try? path.stat()) != nil
    }

    /// The file's text; refused when group or others have any permission on it.
    static func read(_ path: FilePath) throws(CatalogError) -> String {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec])
        } catch {
            throw .tokenFileUnreadable(path, error as? Errno ?? .ioError)
        }
        defer { try? descriptor.close() }
        let status: Stat
        do throws(Errno) {
            status = try descriptor.stat()
        } catch {
            throw .tokenFileUnreadable(path, error)
        }
        guard status.permissions.isDisjoint(with: [.groupReadWriteExecute, .otherReadWriteExecute]) else {
            throw .tokenFileOpenToOthers(path, mode: String(status.permissions.rawValue & 0o777, radix: 8))
        }
        var bytes = [UInt8](repeating: 0, count: TMDBCredential.fileSizeLimit + 1)
        var count = 0
        do {
            while count < bytes.count {
                let read = try bytes.withUnsafeMutableBytes { try descriptor.read(into: .init(rebasing: $0[count...])) }
                if read == 0 { break }
                count += read
            }
        } catch {
            throw .tokenFileUnreadable(path, error as? Errno ?? .ioError)
        }
        guard count <= TMDBCredential.fileSizeLimit else { throw .tokenNotRecognised(source: path.string) }
        return String(decoding: bytes.prefix(count), as: UTF8.self)
    }
}
