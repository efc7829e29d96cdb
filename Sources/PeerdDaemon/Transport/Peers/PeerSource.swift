/// How this daemon came to know a peer it has a connection or a dial target for. `peerctl peers`
/// shows it as the record's `source` (the control edge maps it; `relay` is a record's own).
enum PeerSource: Hashable, Sendable {
    /// Named by the user: `--peer`, the config file, `peerctl connect` or `join --address`.
    case named
    /// It dialed us.
    case inbound
    /// Found on the LAN through mDNS.
    case mdns
    /// A member that announced through the group how to reach it (a `reach` operation), or an
    /// inviter whose code named a relay.
    case group
}
