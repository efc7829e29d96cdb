import Foundation

/// Where the built `peerd` and `peerctl` are: `$PEERD_BIN_DIR` (set by `make test`), else `.build/debug`.
public enum Binaries {
    public static let directory: URL = {
        if let dir = ProcessInfo.processInfo.environment["PEERD_BIN_DIR"] { return URL(fileURLWithPath: dir) }
        // Sources/PeerdTestSupport/Binaries.swift → the package root.
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug")
    }()

    public static var peerd: URL { directory.appendingPathComponent("peerd") }
    public static var peerctl: URL { directory.appendingPathComponent("peerctl") }
}

/// A scratch directory removed when the test is done with it.
public final class ScratchDirectory: Sendable {
    public let url: URL

    public init(_ label: String) throws {
        url = URL(fileURLWithPath: "/tmp").appendingPathComponent("peerd-e2e-\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}
