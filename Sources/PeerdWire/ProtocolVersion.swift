/// Protocol versions. A peer's `hello` and every control request name the version they speak;
/// a receiver that doesn't speak it answers `unsupported-version` and closes.
public enum ProtocolVersion {
    /// The peer protocol (proto/PEER.md).
    public static let peer = 2
    /// The control protocol (proto/CONTROL.md).
    public static let control = 1
}

/// The version of peerd and peerctl, as `--version` and `peerctl status` show it.
public enum PeerdVersion {
    public static let current = "0.1.0"
}
