import Foundation
import SystemPackage

/// A fresh directory under the system's temporary directory, removed by ``remove()``.
struct TemporaryDirectory {
    let path: FilePath

    init() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("peerd-catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = FilePath(url.path)
    }

    /// Writes `text` to `name` in this directory with `mode`, and returns its path.
    @discardableResult
    func write(_ text: String, to name: String, mode: Int = 0o600) throws -> FilePath {
        let file = path.appending(name)
        try FileManager.default.createDirectory(
            atPath: file.removingLastComponent().string,
            withIntermediateDirectories: true
        )
        try Data(text.utf8).write(to: URL(fileURLWithPath: file.string))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.string)
        return file
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path.string)
    }
}
