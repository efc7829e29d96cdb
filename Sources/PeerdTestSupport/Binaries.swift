package import Foundation

/// Where the built `peerd` and `peerctl` are: `$PEERD_BIN_DIR` (set by `make test`), else `.build/debug`.
package enum Binaries {
    package static let directory: URL = {
        if let dir = ProcessInfo.processInfo.environment["PEERD_BIN_DIR"] { return URL(fileURLWithPath: dir) }
        // Sources/PeerdTestSupport/Binaries.swift → the package root.
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug")
    }()

    package static var peerd: URL { directory.appendingPathComponent("peerd") }
    package static var peerctl: URL { directory.appendingPathComponent("peerctl") }
}

/// A scratch directory removed when the test is done with it.
package final class ScratchDirectory: Sendable {
    package let url: URL

    package init(_ label: String) throws {
        url = URL(fileURLWithPath: "/tmp").appendingPathComponent("peerd-e2e-\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    package func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}
