/// One of the group's relays as `peerctl relay` and `peerctl doctor` show it: the URL the group's
/// setting holds, and how this daemon's membership of it stands (proto/CONTROL.md, "relay").
package struct RelayRecord: Hashable, Sendable, Codable {
    package enum State: String, Hashable, Sendable, Codable {
        /// Connecting, or between TLS and the relay's answer to the join.
        case joining
        /// Joined: peers may reach this daemon through it.
        case joined
        /// The last try failed (``RelayRecord/lastError``); the next is in ``RelayRecord/retryIn``.
        case retrying
    }

    /// As the group's setting holds it: `relay://host:port/?id=DEVICE-ID`.
    package var url: String
    /// `host:port`: where sessions through it go.
    package var address: String
    package var state: State
    /// Milliseconds since 1970: when this daemon joined it, while joined.
    package var joinedSince: Int64?
    /// The newest ping's round trip to the relay, milliseconds.
    package var latencyMs: Double?
    package var lastError: String?
    /// Seconds until the next try, while retrying.
    package var retryIn: Double?
    /// Sessions with peers that ride on it now.
    package var sessions: Int

    package init(
        url: String,
        address: String,
        state: State,
        joinedSince: Int64? = nil,
        latencyMs: Double? = nil,
        lastError: String? = nil,
        retryIn: Double? = nil,
        sessions: Int = 0
    ) {
        self.url = url
        self.address = address
        self.state = state
        self.joinedSince = joinedSince
        self.latencyMs = latencyMs
        self.lastError = lastError
        self.retryIn = retryIn
        self.sessions = sessions
    }
}

extension RelayRecord {
    /// A round trip in words: `0.4 ms`, `12 ms` (a tenth of a millisecond below ten).
    package static func words(ms: Double) -> String {
        ms < 10 ? "\((ms * 10).rounded() / 10) ms" : "\(Int(ms.rounded())) ms"
    }
}
