package import PeerdModel

/// What one dial came to (proto/CONTROL.md, "diagnose"): how far it got and why it stopped there.
package struct DialRecord: Hashable, Sendable, Codable {
    /// The last stage a dial reached, in the order they come.
    package enum Stage: String, Hashable, Sendable, Codable {
        case tcp, tls, admission, session
    }

    package enum Outcome: String, Hashable, Sendable, Codable {
        case ok
        /// TCP: nothing listens there, or a firewall rejects.
        case refused
        /// TCP: no answer, often a firewall that drops.
        case timeout
        /// No route: another subnet or VLAN, or client isolation.
        case unreachable
        case tlsFailed = "tls-failed"
        case notMember = "not-member"
        case revoked
        /// The key was removed from the group (proto/PEER.md, "Membership").
        case removed
        /// The peer presented another key than the id it was dialed for.
        case keyMismatch = "key-mismatch"
        case other

        /// The TCP connection itself failed: nothing of peerd's was reached.
        package var isConnectFailure: Bool { self == .refused || self == .timeout || self == .unreachable }
    }

    /// Who refused, for an admission outcome.
    package enum Refuser: String, Hashable, Sendable, Codable {
        /// The other side refused us.
        case peer
        /// We refused the other side.
        case us
    }

    package var address: String
    /// The id it presented, or the one expected when it never showed one.
    package var peer: PeerID?
    /// The id this daemon dialed for (from mDNS, or an earlier session at that address).
    package var expected: PeerID?
    /// When the dial ended, or its session was established (ms since 1970).
    package var at: Int64
    package var stage: Stage
    package var outcome: Outcome
    package var by: Refuser?
    /// In words, as `peers` shows it in `lastError`.
    package var message: String

    package init(
        address: String,
        peer: PeerID? = nil,
        expected: PeerID? = nil,
        at: Int64,
        stage: Stage,
        outcome: Outcome,
        by: Refuser? = nil,
        message: String
    ) {
        self.address = address
        self.peer = peer
        self.expected = expected
        self.at = at
        self.stage = stage
        self.outcome = outcome
        self.by = by
        self.message = message
    }

    /// The host part of `address` (without brackets and port).
    package var host: String { Self.host(of: address) }

    /// The port of `address`, when it has one.
    package var port: Int? { Self.port(of: address) }

    /// `7601` of `10.0.0.2:7601` or `[fe80::1%eth0]:7601`.
    package static func port(of address: String) -> Int? {
        guard let colon = address.lastIndex(of: ":") else { return nil }
        return Int(address[address.index(after: colon)...])
    }

    /// `10.0.0.2` of `10.0.0.2:7601`, `fe80::1%eth0` of `[fe80::1%eth0]:7601`.
    package static func host(of address: String) -> String {
        if address.hasPrefix("["), let close = address.firstIndex(of: "]") {
            return String(address[address.index(after: address.startIndex)..<close])
        }
        guard let colon = address.lastIndex(of: ":") else { return address }
        return String(address[..<colon])
    }
}

/// An inbound connection admission refused.
package struct RefusalRecord: Hashable, Sendable, Codable {
    package var address: String
    /// The id of its certificate.
    package var peer: PeerID?
    package var at: Int64
    /// `not-member`, `revoked`, `key-mismatch` or `other`.
    package var code: DialRecord.Outcome
    package var message: String

    package init(address: String, peer: PeerID?, at: Int64, code: DialRecord.Outcome, message: String) {
        self.address = address
        self.peer = peer
        self.at = at
        self.code = code
        self.message = message
    }
}

/// The latest inbound session of a peer that dialed us.
package struct InboundRecord: Hashable, Sendable, Codable {
    package var peer: PeerID
    package var name: String?
    package var address: String
    /// The port it listens on, from its hello (0: none).
    package var port: Int?
    /// When it was established.
    package var at: Int64

    package init(peer: PeerID, name: String?, address: String, port: Int?, at: Int64) {
        self.peer = peer
        self.name = name
        self.address = address
        self.port = port
        self.at = at
    }

    /// Where it listens: its address's host with the port of its hello.
    package var listenAddress: String? { Self.listenAddress(address, port: port) }

    static func listenAddress(_ address: String, port: Int?) -> String? {
        guard let port, port > 0 else { return nil }
        let host = DialRecord.host(of: address)
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}

/// An established session, with the peer's clock skew.
package struct SessionRecord: Hashable, Sendable, Codable {
    package enum Direction: String, Hashable, Sendable, Codable {
        /// We dialed it.
        case outbound
        /// It dialed us.
        case inbound
    }

    package var peer: PeerID
    package var name: String?
    package var address: String
    /// The port it listens on, from its hello (0: none).
    package var port: Int?
    package var direction: Direction
    package var since: Int64
    /// The peer's clock minus ours (ms), from the `time` in its hello; nil when it sent none.
    package var skewMs: Int64?
    /// How long nothing has come from it (ms), when longer than a keepalive interval: its packets
    /// may have stopped arriving, and the session drops once the silence reaches its limit.
    package var silentMs: Int64?

    package init(
        peer: PeerID,
        name: String?,
        address: String,
        port: Int?,
        direction: Direction,
        since: Int64,
        skewMs: Int64?,
        silentMs: Int64? = nil
    ) {
        self.peer = peer
        self.name = name
        self.address = address
        self.port = port
        self.direction = direction
        self.since = since
        self.skewMs = skewMs
        self.silentMs = silentMs
    }

    /// Where it listens: its address's host with the port of its hello.
    package var listenAddress: String? { InboundRecord.listenAddress(address, port: port) }
}
