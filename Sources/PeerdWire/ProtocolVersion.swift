/// Protocol versions. A peer's `hello` and every control request name the version they speak;
/// a receiver that doesn't speak it answers `unsupported-version` and closes.
public enum ProtocolVersion {
    /// The peer protocol (proto/PEER.md).
    public static let peer = 1
    /// The control protocol (proto/CONTROL.md).
    public static let control = 1
}
