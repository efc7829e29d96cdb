package import PeerdModel
package import PeerdWire

/// What `peerctl export --format json` writes, and `peerctl import` reads back:
///
/// ```json
/// {"peerd": "export", "version": 1, "exportedAt": 1714567890123,
///  "member": {"peer": "9f2c…", "name": "alice"},
///  "movies": [ <MovieRecord, as `peerctl list --json` shows a row, with every member's marks> ]}
/// ```
package struct PeerdExport: Hashable, Sendable, Codable {
    /// The version this peerd writes and reads; a later one is refused (``ImportError/newerExport(place:version:)``).
    package static let currentVersion = 1

    /// Always `export`: what tells this JSON from others.
    package var peerd: String
    package var version: Int
    /// Milliseconds since 1970.
    package var exportedAt: Int64
    /// Who exported: whose marks an import sets.
    package var member: Member
    package var movies: [MovieRecord]

    package struct Member: Hashable, Sendable, Codable {
        package var peer: PeerID
        package var name: String

        package init(peer: PeerID, name: String) {
            self.peer = peer
            self.name = name
        }
    }

    package init(exportedAt: Int64, member: Member, movies: [MovieRecord]) {
        peerd = "export"
        version = Self.currentVersion
        self.exportedAt = exportedAt
        self.member = member
        self.movies = movies
    }
}
