package import Foundation
package import SystemPackage

/// A fresh directory for one test, `/tmp/peerd-LABEL-XXXXXXXX`, removed with everything in it by
/// ``remove()`` or when the last reference goes. The one way tests make a temporary directory.
///
/// Under `/tmp` itself, not `$TMPDIR`: a daemon's control socket goes in it, and a Unix socket's path
/// is at most 107 bytes. Scoped work takes ``withScratchDirectory(_:_:)``, which keeps the directory
/// until its body returns (ARC may end a local's life at its last use, before the test is done).
package final class ScratchDirectory: Sendable {
    package let url: URL

    package init(_ label: String) throws {
        let name = "peerd-\(label)-\(UUID().uuidString.prefix(8).lowercased())"
        url = URL(fileURLWithPath: "/tmp").appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The directory itself.
    package var path: FilePath { FilePath(url.path) }

    /// `name` inside it (`name` may have slashes).
    package func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` (making the folders on the way) with `mode`, and returns its path.
    @discardableResult
    package func write(_ text: String, to name: String, mode: Int = 0o600) throws -> FilePath {
        let file = FilePath(path(name))
        try FileManager.default.createDirectory(
            atPath: file.removingLastComponent().string,
            withIntermediateDirectories: true
        )
        try Data(text.utf8).write(to: URL(fileURLWithPath: file.string))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.string)
        return file
    }

    package func remove() { try? FileManager.default.removeItem(at: url) }

    deinit { remove() }
}

/// Runs `body` with a fresh ``ScratchDirectory``'s path, removed once `body` returns or throws.
package func withScratchDirectory<Result>(
    _ label: String = "test",
    _ body: (FilePath) async throws -> Result
) async throws -> Result {
    let scratch = try ScratchDirectory(label)
    defer { scratch.remove() }
    return try await body(scratch.path)
}

/// Runs `body` with a fresh ``ScratchDirectory``'s path, removed once `body` returns or throws.
package func withScratchDirectory<Result>(_ label: String = "test", _ body: (FilePath) throws -> Result) throws
    -> Result
{
    let scratch = try ScratchDirectory(label)
    defer { scratch.remove() }
    return try body(scratch.path)
}
