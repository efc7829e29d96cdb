/// Protocol versions. A peer's `hello` and every control request name the version they speak;
/// a receiver that doesn't speak it answers `unsupported-version` and closes.
package enum ProtocolVersion {
    /// The peer protocol (proto/PEER.md).
    package static let peer = 2
    /// The control protocol (proto/CONTROL.md).
    package static let control = 1
}

/// The version of peerd and peerctl, as `--version` and `peerctl status` show it.
package enum PeerdVersion {
    package static let current = "0.1.0"
}
