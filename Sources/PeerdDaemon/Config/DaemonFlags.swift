/// What `peerd`'s command line said, as plain values: its ``DaemonSettings`` (nil or empty for a
/// flag not given, so the config file and the defaults can fill it in) and the flags that only the
/// command line sets (``DaemonConfiguration/init(flags:file:environment:hostName:)``).
///
/// The command parses the flags; this holds only their values, so the daemon's settings are
/// resolved and tested without swift-argument-parser.
@dynamicMemberLookup
package struct DaemonFlags: Equatable, Sendable {
    package var settings = DaemonSettings()
    package var groupSecretFile: String?
    /// `--no-tmdb`.
    package var noTmdb = false
    /// `--config`.
    package var config: String?
    /// `--keepalive-interval` (hidden): nil keeps the session's default.
    package var keepaliveInterval: Duration?
    /// `--flood` (hidden): push every operation over every session, no relay tree.
    package var flood = false

    package init() {}

    package subscript<Value>(dynamicMember path: WritableKeyPath<DaemonSettings, Value>) -> Value {
        get { settings[keyPath: path] }
        set { settings[keyPath: path] = newValue }
    }
}
