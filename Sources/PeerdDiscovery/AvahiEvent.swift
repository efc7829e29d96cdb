/// What the Avahi bridge reports, in the order it happened on Avahi's thread.
package enum AvahiEvent: Hashable, Sendable {
    /// Avahi's client failed (or could not be made); the bridge makes it again and waits.
    case unavailable(String)
    /// The Avahi daemon (or the D-Bus system bus) is not reachable; the client waits for it.
    case connecting(String)
    /// Connected to the daemon; publishing and browsing start (again).
    case running
    /// Avahi's host name, fully qualified (`alice-laptop.local`), once running.
    case hostName(String)
    /// Our own host name resolved through Avahi, to this address.
    case hostResolved(name: String, address: String)
    /// Our own host name did not resolve through Avahi.
    case hostNotResolved(name: String, reason: String)
    /// Our service is announced under `name`.
    case published(name: String)
    /// Another service had our name; we now announce as `to`. The peer id is unchanged.
    case renamed(from: String, to: String)
    /// Publishing failed for a reason other than a name collision.
    case publishFailed(String)
    /// One address of a service of our type, with its TXT record.
    case resolved(ResolvedService)
    /// Avahi no longer sees the service on this interface and protocol. Only a hint: the session's
    /// own keepalive decides whether the peer is alive.
    case removed(name: String, interface: Int32, ipv6: Bool)
    case browseFailed(String)
}

/// One resolution of a `_watchlist._tcp` service: one address on one interface.
package struct ResolvedService: Hashable, Sendable {
    package var name: String
    package var interface: Int32
    /// The interface's name, needed as the scope of an IPv6 link-local address.
    package var interfaceName: String?
    package var ipv6: Bool
    package var address: String
    package var port: Int
    package var txt: [String: String]

    package init(
        name: String,
        interface: Int32,
        interfaceName: String?,
        ipv6: Bool,
        address: String,
        port: Int,
        txt: [String: String]
    ) {
        self.name = name
        self.interface = interface
        self.interfaceName = interfaceName
        self.ipv6 = ipv6
        self.address = address
        self.port = port
        self.txt = txt
    }
}
