package import PeerdModel
import PeerdSync
import PeerdWire

/// Who we know and how each connection stands: the source of `peerctl peers`, and the one place
/// that decides which of two sessions with the same peer survives.
package actor PeerDirectory {
    /// A live connection, from TCP connect until close.
    struct Connection {
        var address: String
        var source: PeerSource
        var role: PeerSession<ContinuousClock.Instant>.Role
        /// The relay's `host:port` when the session rides on one; nil when it goes straight to the peer.
        var via: String?
        var peer: PeerID?
        var name: String?
        var established: Bool
        var connectedSince: Int64?
        var lastSeen: Int64?
        var opsSent = 0
        var opsReceived = 0
        /// The peer's clock minus ours (ms), from its hello's `time`.
        var skewMs: Int64?
        /// The port it listens on, from its hello.
        var listenPort: Int?
        /// Since when nothing has come from it, once that is longer than a keepalive interval.
        var silentSince: ContinuousClock.Instant?
        /// Its hello says it holds a TMDB token and answers catalog queries.
        var catalog = false
        /// Its hello says it checks the group's wanted movies for news (proto/PEER.md, "News").
        var news = false
        var close: @Sendable (WireError) -> Void
        /// Sends a catalog `query` or `answer` on this connection.
        var send: @Sendable (PeerMessage) -> Void
    }

    /// An inbound peer that admission refused: `peers` lists it as untrusted on the accepting side
    /// too. Only the latest `refusedLimit` are kept, so many throwaway keys can't grow this.
    struct Refusal {
        var address: String
        var reason: String
        var at: Int64
    }

    static let refusedLimit = 64

    let localID: PeerID
    private(set) var connections: [Int: Connection] = [:]
    private(set) var refusals: [PeerID: Refusal] = [:]
    private(set) var targets: [DialTarget.Key: DialTarget] = [:]
    /// Keys removed from the group, with what their sessions were closed with: a handshake that
    /// ends after the removal is refused the same way.
    private var removed: [PeerID: WireError] = [:]
    /// Recent dial results, refusals and inbound sessions, for `peerctl doctor`.
    var dialLog = DialLog()
    /// The dial loops' doorbells: rung when something may change what a target should do.
    private let doorbells = Broadcast<Ring>(bufferingPolicy: .bufferingNewest(1))
    private var nextConnectionID = 0
    /// Rung when a session comes up or ends (the count systemd's `STATUS=` shows may change).
    private let sessionBell = Broadcast<Void>(bufferingPolicy: .bufferingNewest(1))
    /// The peers seen holding a TMDB token since start, with their names and when last connected
    /// (ms), for the error that says none is connected.
    private(set) var tokenHolders: [PeerID: (name: String, lastSeen: Int64)] = [:]

    package init(localID: PeerID) {
        self.localID = localID
    }

    // MARK: Connections

    func opened(
        address: String,
        source: PeerSource,
        role: PeerSession<ContinuousClock.Instant>.Role,
        via: String? = nil,
        close: @escaping @Sendable (WireError) -> Void,
        send: @escaping @Sendable (PeerMessage) -> Void = { _ in }
    ) -> Int {
        nextConnectionID += 1
        connections[nextConnectionID] = Connection(
            address: address,
            source: source,
            role: role,
            via: via,
            established: false,
            close: close,
            send: send
        )
        return nextConnectionID
    }

    /// A session this daemon dialed says who is at `address`: a target named by that address learns
    /// its peer and name; one that names its peer (a member, an mDNS announcement) keeps it, and
    /// learns the name only when this is that peer.
    private func learn(_ hello: PeerMessage.Hello, at address: String) {
        for (key, target) in targets where target.addresses.contains(where: { $0.description == address }) {
            guard (key.peer ?? hello.peer) == hello.peer else { continue }
            targets[key]?.peer = hello.peer
            targets[key]?.name = hello.name
        }
    }

    /// Records a completed handshake. Returns why not when another session with the same peer wins
    /// or the peer's key was removed while its handshake ran (``disconnect(_:_:)`` came first), in
    /// which case the caller closes this one; a losing older session is closed from here.
    func established(_ id: Int, hello: PeerMessage.Hello, now: Int64) -> WireError? {
        if let removal = removed[hello.peer] { return removal }
        guard var connection = connections[id] else {
            return WireError(.duplicateSession, "already connected to this peer")
        }
        let candidate = SessionArbiter.Candidate(
            dialer: connection.role == .dialer ? localID : hello.peer,
            relayed: connection.via != nil
        )
        let others = connections.filter { $0.key != id && $0.value.established && $0.value.peer == hello.peer }
        if let (otherID, other) = others.first {
            let existing = SessionArbiter.Candidate(
                dialer: other.role == .dialer ? localID : hello.peer,
                relayed: other.via != nil
            )
            let age = Duration.milliseconds(now - (other.connectedSince ?? now))
            switch SessionArbiter.decide(new: candidate, existing: existing, local: localID, existingAge: age) {
            case .keepExisting:
                return WireError(.duplicateSession, "already connected to this peer")
            case .keepNew:
                connections[otherID]?.established = false
                other.close(WireError(.duplicateSession, "a preferred session with this peer was established"))
            case .keepBoth:
                break
            }
        }
        connection.peer = hello.peer
        connection.name = hello.name
        refusals[hello.peer] = nil
        if connection.role == .dialer { learn(hello, at: connection.address) }
        connection.established = true
        connection.connectedSince = now
        connection.lastSeen = now
        connection.skewMs = hello.time.map { $0 - now }
        connection.listenPort = hello.port
        connection.catalog = hello.catalog == true
        connection.news = hello.news == true
        if connection.catalog { tokenHolders[hello.peer] = (hello.name, now) }
        connections[id] = connection
        sessionBell.yield(())
        noteEstablished(connection, peer: hello.peer)
        return nil
    }

    func touched(_ id: Int, now: Int64, sent: Int = 0, received: Int = 0) {
        connections[id]?.lastSeen = now
        connections[id]?.opsSent += sent
        connections[id]?.opsReceived += received
    }

    /// Nothing has come from connection `id`'s peer since `heard` (nil: it has spoken again).
    func silent(_ id: Int, since heard: ContinuousClock.Instant?) {
        connections[id]?.silentSince = heard
    }

    func closed(_ id: Int, now: Int64 = Wallclock.millis()) {
        guard let connection = connections.removeValue(forKey: id), let peer = connection.peer else { return }
        if connection.established, connection.catalog { tokenHolders[peer]?.lastSeen = now }
        if connection.established { sessionBell.yield(()) }
        // A target waiting while its peer was connected some other way may dial again.
        for (key, target) in targets where target.peer == peer { ring(key) }
    }

    /// Closes every session with `peer` (it was revoked); one whose handshake is still running
    /// is refused when it completes, when `error` says the key was removed from the group (for good).
    func disconnect(_ peer: PeerID, _ error: WireError) {
        if error.code == .removed { removed[peer] = error }
        for (id, connection) in connections where connection.peer == peer {
            connections[id]?.established = false
            connection.close(error)
        }
    }

    /// Admission refused an inbound connection from `peer`; `code` is the refusal's outcome.
    func refusedInbound(_ peer: PeerID, address: String, reason: String, code: DialRecord.Outcome, now: Int64) {
        dialLog.refused(RefusalRecord(address: address, peer: peer, at: now, code: code, message: reason))
        refusals[peer] = Refusal(address: address, reason: reason, at: now)
        if refusals.count > Self.refusedLimit, let oldest = refusals.min(by: { $0.value.at < $1.value.at })?.key {
            refusals[oldest] = nil
        }
    }

    func isConnected(_ peer: PeerID) -> Bool {
        connections.values.contains { $0.established && $0.peer == peer }
    }

    /// How many established sessions ride on each relay, by its `host:port`.
    func relayedSessions() -> [String: Int] {
        var counts: [String: Int] = [:]
        for connection in connections.values where connection.established {
            if let via = connection.via { counts[via, default: 0] += 1 }
        }
        return counts
    }

    /// Whether a session with `peer` goes straight to it (not through a relay).
    func isConnectedDirectly(_ peer: PeerID) -> Bool {
        connections.values.contains { $0.established && $0.peer == peer && $0.via == nil }
    }

    // MARK: Dial targets

    /// Adds a target, or refreshes a known one (addresses, name, no longer lost). True if it is new.
    func upsertTarget(
        _ key: DialTarget.Key,
        addresses: [PeerAddress],
        source: PeerSource,
        peer: PeerID? = nil,
        name: String? = nil,
        relayRoute: DialTarget.RelayRoute? = nil
    ) -> Bool {
        if targets[key] != nil {
            targets[key]?.found(at: addresses, name: name)
            if relayRoute != nil { targets[key]?.relayRoute = relayRoute }
            ring(key)
            return false
        }
        targets[key] = DialTarget(key: key, addresses: addresses, source: source, peer: peer, name: name)
        targets[key]?.relayRoute = relayRoute
        return true
    }

    /// Someone asked for this target now: a retry waiting out its backoff is due at once.
    func dialNow(_ key: DialTarget.Key) {
        targets[key]?.dialNow()
        ring(key)
    }

    /// mDNS no longer sees the target's peer: a hint, acted on once no session is up.
    func lost(_ key: DialTarget.Key) {
        targets[key]?.lost = true
        ring(key)
    }

    func target(_ key: DialTarget.Key) -> DialTarget? { targets[key] }

    /// A ring of one dial loop's doorbell, or of all of them.
    enum Ring: Sendable {
        case target(DialTarget.Key)
        case all

        func rings(_ key: DialTarget.Key) -> Bool {
            switch self {
            case .target(let rung): rung == key
            case .all: true
            }
        }
    }

    /// The doorbell of `key`'s dial loop (newest ring kept), until the loop lets go of it.
    func wakeups(for key: DialTarget.Key) -> AsyncStream<Ring> {
        doorbells.subscribe { $0.rings(key) }
    }

    /// Rings `key`'s dial loop; the loop's own timer rings it too.
    nonisolated func ring(_ key: DialTarget.Key) {
        doorbells.yield(.target(key))
    }

    /// Rings every dial loop: trust changed, so who may be dialed may have too.
    func wakeAll() {
        doorbells.yield(.all)
    }

    /// What `key`'s dial loop does now (its target's state machine decides).
    func next(_ key: DialTarget.Key, now: ContinuousClock.Instant, dialable: Bool) -> DialTarget.Next {
        guard var target = targets[key] else { return .stop(.removed) }
        // A relayed session holds back only a target with no direct address to try: one that
        // answers replaces it (``SessionArbiter``).
        let connected =
            target.peer.map { target.addresses.isEmpty ? isConnected($0) : isConnectedDirectly($0) } ?? false
        let next = target.next(now: now, connected: connected, dialable: dialable)
        targets[key] = target
        // Its loop stops, and its doorbell goes with it.
        if case .stop = next { targets[key] = nil }
        return next
    }

    func ended(_ key: DialTarget.Key, _ outcome: DialTarget.Outcome, now: ContinuousClock.Instant) {
        targets[key]?.ended(outcome, now: now)
    }

    /// A ring each time a session comes up or ends (systemd's `STATUS=` shows how many are up).
    func sessionChanges() -> AsyncStream<Void> { sessionBell.subscribe() }

    var connectedCount: Int { connectedPeers.count }

    /// The peers with an established session now.
    var connectedPeers: Set<PeerID> { Set(connections.values.filter(\.established).compactMap(\.peer)) }

    var knownCount: Int {
        var peers = Set(connections.values.compactMap(\.peer))
        var unnamed = 0
        for target in targets.values {
            if let peer = target.peer { peers.insert(peer) } else { unnamed += 1 }
        }
        return peers.count + unnamed
    }
}
