import PeerdModel
import PeerdRelay
import PeerdSync

/// A peer this daemon dials, and when, as a plain value: ``next(now:connected:dialable:)`` says
/// what to do, ``ended(_:now:)`` takes what a dial came to. The dialer carries the steps out and
/// waits on a deadline or a change, never polling (proto/PEER.md, "Reconnect").
struct DialTarget: Sendable {
    /// Named by address (`--peer`, `peerctl connect`), or found by mDNS and keyed by its announced
    /// id (its addresses change as Avahi reports them).
    enum Key: Hashable, Sendable, CustomStringConvertible {
        case address(PeerAddress)
        case discovered(PeerID)
        /// A member that announced through the group how to reach it (a `reach` operation), or an
        /// inviter whose code names a relay: its addresses first, then the relay.
        case member(PeerID)

        /// The peer the key names: a dial of it expects that peer, whatever a session reached.
        /// Only a target named by address learns its peer by dialing.
        var peer: PeerID? {
            switch self {
            case .address: nil
            case .discovered(let peer), .member(let peer): peer
            }
        }

        var description: String {
            switch self {
            case .address(let address): "\(address)"
            case .discovered(let peer): "mdns:\(peer.short)"
            case .member(let peer): "group:\(peer.short)"
            }
        }
    }

    /// How a target is reached when none of its addresses answers: its device id on the relays it
    /// may be joined to, the group's (proto/PEER.md, "Relays and reach").
    struct RelayRoute: Hashable, Sendable {
        var device: RelayDeviceID
        var relays: [RelayURL]
    }

    enum Phase: Hashable, Sendable {
        /// To be dialed at once.
        case due
        case dialing
        /// To be dialed again at this time, after a failed dial or a session that ended.
        case retrying(at: ContinuousClock.Instant)
        /// Its peer has a session some other way: nothing to do until that ends.
        case connectedElsewhere
        /// Announced but not one that could be admitted, so not dialed until trust changes.
        case untrusted
        /// Not to be dialed again: it was this daemon itself, or mDNS lost it.
        case gone
    }

    enum Next: Hashable, Sendable {
        /// Dial these addresses in turn, each with this long to connect.
        case dial([PeerAddress], connectTimeout: Duration)
        case wait(until: ContinuousClock.Instant)
        /// Wait until something changes: a session ends, trust changes, mDNS reports it.
        case waitForChange
        case stop(StopReason)
    }

    enum StopReason: Hashable, Sendable {
        /// Dialing it reached this daemon itself.
        case itself
        /// mDNS lost it while no session was up.
        case lost
        /// It is no longer a target.
        case removed
    }

    /// What one dial came to: the peer it reached, how long a session lasted, why it ended.
    struct Outcome: Sendable {
        var peer: PeerID?
        var establishedFor: Duration?
        var error: String?
        var reachedItself = false
        /// Nothing answered: the connection was refused (nothing listens there) or went nowhere.
        var refused = false
    }

    /// After a session is lost, its peer is dialed again quickly for this long, however often the
    /// dials fail: a partition that heals is noticed within about a second, not after a backoff
    /// grown to 30 s (proto/PEER.md, "Reconnect"). A refused dial (peerd stopped) backs off as usual.
    static let quickWindow = Duration.seconds(120)
    /// The quick redial: this long to connect (a LAN answers in milliseconds; one SYN resent),
    /// then a pause of `quickPause` times the jitter.
    static let quickConnectTimeout = Duration.seconds(1)
    static let quickPause = Duration.milliseconds(400)
    static let connectTimeout = Duration.seconds(5)
    /// An address of a target with a relay to fall back on gets at most this long: a LAN or a
    /// forwarded port answers well within it, and an address of another house's LAN never does, so
    /// the relay is not kept waiting for each of them (proto/PEER.md, "Relays and reach").
    static let beforeRelayTimeout = Duration.milliseconds(1500)

    let key: Key
    var addresses: [PeerAddress]
    /// Tried after the addresses, while no session with its peer is up.
    var relayRoute: RelayRoute?
    let source: PeerSource
    var peer: PeerID?
    var name: String?
    /// mDNS no longer announces it: dialing stops once no session is up.
    var lost = false
    private(set) var phase = Phase.due
    private(set) var lastError: String?
    private var backoff = Backoff()
    /// When the last established session ended.
    private var sessionEnded: ContinuousClock.Instant?

    init(key: Key, addresses: [PeerAddress], source: PeerSource, peer: PeerID? = nil, name: String? = nil) {
        self.key = key
        self.addresses = addresses
        self.source = source
        self.peer = peer
        self.name = name
    }

    /// What to do at `now`: `connected` says whether its peer has a session now, `dialable` whether
    /// it could be admitted if dialed.
    mutating func next(now: ContinuousClock.Instant, connected: Bool, dialable: Bool) -> Next {
        if phase == .gone { return .stop(lost ? .lost : .itself) }
        if connected {
            phase = .connectedElsewhere
            return .waitForChange
        }
        if lost {
            phase = .gone
            return .stop(.lost)
        }
        guard dialable else {
            phase = .untrusted
            return .waitForChange
        }
        if case .retrying(let at) = phase, now < at { return .wait(until: at) }
        phase = .dialing
        let timeout = isQuick(now) ? Self.quickConnectTimeout : Self.connectTimeout
        return .dial(addresses, connectTimeout: relayRoute == nil ? timeout : min(timeout, Self.beforeRelayTimeout))
    }

    private func isQuick(_ now: ContinuousClock.Instant) -> Bool {
        sessionEnded.map { $0.duration(to: now) < Self.quickWindow } ?? false
    }

    /// A dial ended (with the session it made, if any): retry after the backoff, or never again.
    mutating func ended(_ outcome: Outcome, now: ContinuousClock.Instant) {
        // A member's or an announced peer's id stays: a session that reached someone else (a relay
        // lying about a session, an address shared by two houses) must not make the next dial
        // expect that someone, and refuse the real peer.
        if key.peer == nil, let reached = outcome.peer { peer = reached }
        lastError = outcome.error
        if outcome.reachedItself {
            phase = .gone
            return
        }
        if outcome.establishedFor != nil { sessionEnded = now }
        var generator = SystemRandomNumberGenerator()
        let delay = backoff.next(after: outcome.establishedFor, using: &generator)
        guard isQuick(now), !outcome.refused else {
            phase = .retrying(at: now + delay)
            return
        }
        phase = .retrying(at: now + Self.quickPause * Double.random(in: 0.75...1.0, using: &generator))
    }

    /// Someone asked for it now (`peerctl connect` or `join` again): a retry waiting out its backoff
    /// is due at once. The backoff goes on from where it was for the dials after.
    mutating func dialNow() {
        if case .retrying = phase { phase = .due }
    }

    /// mDNS found it again, at these addresses.
    mutating func found(at addresses: [PeerAddress], name: String?) {
        self.addresses = addresses
        self.name = name ?? self.name
        lost = false
        if phase == .gone { phase = .due }
    }
}
