package import SystemPackage

/// The format of a state directory, in `<state-dir>/format` ("peerd-state 1").
///
/// A peerd opens a directory only in a format it reads, and refuses one a newer release wrote
/// before it writes anything in it but its lock: no key made, no log opened. A directory
/// without the file was made by 0.1.0, whose layout is format 1, or is new; either way it gets
/// the file. A later release that changes the layout raises ``current``, converts older
/// directories when it opens them, and rewrites the file last.
package enum StateFormat {
    /// The format this release writes and the newest it reads.
    package static let current = 1
    static let fileName = "format"
    private static let prefix = "peerd-state "

    /// Checks the format of the directory at `directory`, and records it where it is not yet.
    ///
    /// - Throws: `StoreError.newerFormat` for a format above ``current``, `.corruptFile` for a
    ///   `format` file that says something else; the directory is left as it was in both cases.
    package static func check(_ directory: FilePath) throws(StoreError) {
        let path = directory.appending(fileName)
        guard let bytes = try AtomicFile.read(path) else {
            try AtomicFile.write(Array("\(prefix)\(current)\n".utf8), to: path)
            return
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.hasPrefix(prefix), text.hasSuffix("\n"),
            let found = Int(text.dropFirst(prefix.count).dropLast()), found >= 1
        else {
            throw .corruptFile(path, reason: "it should say \"\(prefix)N\" with N from 1")
        }
        if found > current { throw .newerFormat(directory, found: found, reads: current) }
    }
}
