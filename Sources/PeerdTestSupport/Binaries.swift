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
