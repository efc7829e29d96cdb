/// Protocol versions. A peer's `hello` and every control request name the version they speak;
/// a receiver that doesn't speak it answers `unsupported-version` and closes.
package enum ProtocolVersion {
    /// The peer protocol (proto/PEER.md). Version 3 added the group's membership (`member`
    /// operations): a peer that can't honour a removal must not take part.
    package static let peer = 3
    /// The control protocol (proto/CONTROL.md).
    package static let control = 1
}

/// The version of peerd and peerctl, as `--version` and `peerctl status` show it.
package enum PeerdVersion {
    package static let current = "0.1.0"
}
