import Foundation

/// Files in Tests/PeerdImportTests/Fixtures, made by hand in each format's real layout from the
/// headers its site documents; the ZIPs are made from them at run time.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // PeerdImportTests
        .appendingPathComponent("Fixtures")

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// A ZIP of every file under the fixture folder `folder`, by its path there (after `prefix`).
    static func zip(folder: String, prefix: String = "") throws -> [UInt8] {
        let root = directory.appendingPathComponent(folder)
        let paths = (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []).sorted()
        let files = try paths.compactMap { path -> (String, [UInt8])? in
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isFolder)
            return isFolder.boolValue ? nil : (prefix + path, try bytes("\(folder)/\(path)"))
        }
        return try zip(files)
    }

    /// A ZIP of these files, deflated.
    static func zip(_ files: [(path: String, bytes: [UInt8])]) throws -> [UInt8] {
        var writer = ZipWriter()
        for (path, bytes) in files { writer.add(path, bytes) }
        return writer.archive()
    }
}
