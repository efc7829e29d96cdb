package import PeerdModel
import PeerdSync
import PeerdWire

/// Who we know and how each connection stands: the source of `peerctl peers`, and the one place
/// that decides which of two sessions with the same peer survives.
package actor PeerDirectory {
    /// A live connection, from TCP connect until close.
    struct Connection {
        var address: String
        var source: PeerRecord.Source
        var role: PeerSession<ContinuousClock.Instant>.Role
        var peer: PeerID?
        var name: String?
        var established: Bool
        var connectedSince: Int64?
        var lastSeen: Int64?
        var opsSent = 0
        var opsReceived = 0
        var close: @Sendable (WireError) -> Void
    }

    /// A static peer we dial, between attempts too.
    /// A peer we dial, between attempts too: named by address (`--peer`, `peerctl connect`) or
    /// found by mDNS (keyed by its announced id; its addresses change as Avahi reports them).
    struct DialTarget {
        enum Key: Hashable, Sendable {
            case address(PeerAddress)
            case discovered(PeerID)
        }

        var key: Key
        var addresses: [PeerAddress]
        var source: PeerRecord.Source
        var peer: PeerID?
        var name: String?
        var state: PeerRecord.State = .connecting
        var lastError: String?
        var retryAt: ContinuousClock.Instant?
        /// mDNS no longer announces it; dialing stops once no session is up.
        var lost = false
    }

    /// An inbound peer that admission refused: `peers` lists it as untrusted on the accepting side
    /// too. Only the latest `refusedLimit` are kept, so many throwaway keys can't grow this.
    struct Refusal {
        var address: String
        var reason: String
        var at: Int64
    }

    static let refusedLimit = 64

    private let localID: PeerID
    private var connections: [Int: Connection] = [:]
    private var refusals: [PeerID: Refusal] = [:]
    private var targets: [DialTarget.Key: DialTarget] = [:]
    private var nextConnectionID = 0

    package init(localID: PeerID) {
        self.localID = localID
    }

    // MARK: Connections

    func opened(
        address: String,
        source: PeerRecord.Source,
        role: PeerSession<ContinuousClock.Instant>.Role,
        close: @escaping @Sendable (WireError) -> Void
    ) -> Int {
        nextConnectionID += 1
        connections[nextConnectionID] = Connection(
            address: address,
            source: source,
            role: role,
            established: false,
            close: close
        )
        return nextConnectionID
    }

    /// Records a completed handshake. Returns false when another session with the same peer wins,
    /// in which case the caller closes this one; a losing older session is closed from here.
    func established(_ id: Int, hello: PeerMessage.Hello, now: Int64) -> Bool {
        guard var connection = connections[id] else { return false }
        let candidate = SessionArbiter.Candidate(dialer: connection.role == .dialer ? localID : hello.peer)
        let others = connections.filter { $0.key != id && $0.value.established && $0.value.peer == hello.peer }
        if let (otherID, other) = others.first {
            let existing = SessionArbiter.Candidate(dialer: other.role == .dialer ? localID : hello.peer)
            switch SessionArbiter.decide(new: candidate, existing: existing, local: localID) {
            case .keepExisting:
                return false
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
        if connection.role == .dialer,
            let key = targets.first(where: { $0.value.addresses.contains { $0.description == connection.address } })?
                .key
        {
            targets[key]?.peer = hello.peer
        }
        connection.established = true
        connection.connectedSince = now
        connection.lastSeen = now
        connections[id] = connection
        return true
    }

    func touched(_ id: Int, now: Int64, sent: Int = 0, received: Int = 0) {
        connections[id]?.lastSeen = now
        connections[id]?.opsSent += sent
        connections[id]?.opsReceived += received
    }

    func closed(_ id: Int) {
        connections[id] = nil
    }

    /// Closes every session with `peer` (it was revoked).
    func disconnect(_ peer: PeerID, _ error: WireError) {
        for (id, connection) in connections where connection.peer == peer {
            connections[id]?.established = false
            connection.close(error)
        }
    }

    /// Admission refused an inbound connection from `peer`.
    func refusedInbound(_ peer: PeerID, address: String, reason: String, now: Int64) {
        refusals[peer] = Refusal(address: address, reason: reason, at: now)
        if refusals.count > Self.refusedLimit, let oldest = refusals.min(by: { $0.value.at < $1.value.at })?.key {
            refusals[oldest] = nil
        }
    }

    func isConnected(_ peer: PeerID) -> Bool {
        connections.values.contains { $0.established && $0.peer == peer }
    }

    // MARK: Dial targets

    /// Adds a target, or refreshes a known one (addresses, name, no longer lost). True if it is new.
    func upsertTarget(
        _ key: DialTarget.Key,
        addresses: [PeerAddress],
        source: PeerRecord.Source,
        peer: PeerID? = nil,
        name: String? = nil
    ) -> Bool {
        if var target = targets[key] {
            target.addresses = addresses
            target.lost = false
            target.name = name ?? target.name
            targets[key] = target
            return false
        }
        targets[key] = DialTarget(key: key, addresses: addresses, source: source, peer: peer, name: name)
        return true
    }

    func target(_ key: DialTarget.Key) -> DialTarget? { targets[key] }

    func removeTarget(_ key: DialTarget.Key) { targets[key] = nil }

    func updateTarget(_ key: DialTarget.Key, _ update: (inout DialTarget) -> Void) {
        guard var target = targets[key] else { return }
        update(&target)
        targets[key] = target
    }

    // MARK: Reporting

    /// One row per established peer, then one per dial target not (yet) matched to one, then one per
    /// inbound peer refused lately, then one per origin known only from relayed operations
    /// (`relayed`: id and latest name, from the replica).
    func records(
        now: ContinuousClock.Instant,
        relayed: [(peer: PeerID, name: String)],
        trust: [PeerID: PeerRecord.Trust]
    ) -> [PeerRecord] {
        func trusted(_ peer: PeerID?) -> PeerRecord.Trust? { peer.map { trust[$0] ?? .untrusted } }
        var rows: [PeerRecord] = []
        var shown = Set<PeerID>([localID])
        for (_, c) in connections.sorted(by: { $0.key < $1.key }) where c.established {
            guard let peer = c.peer, shown.insert(peer).inserted else { continue }
            let target = targets.values.first { $0.peer == peer }
            let known = (target?.addresses ?? []).map(\.description)
            rows.append(
                PeerRecord(
                    peer: peer,
                    name: c.name,
                    address: c.address,
                    // An inbound connection's address has the peer's ephemeral port: not one to dial.
                    addresses: known.isEmpty ? [c.address] : known,
                    source: target?.source ?? c.source,
                    state: .connected,
                    trust: trusted(peer),
                    connectedSince: c.connectedSince,
                    lastSeen: c.lastSeen,
                    opsSent: c.opsSent,
                    opsReceived: c.opsReceived
                )
            )
        }
        for target in targets.values.sorted(by: { "\($0.key)" < "\($1.key)" }) {
            if let peer = target.peer, !shown.insert(peer).inserted { continue }
            let addresses = target.addresses.map(\.description)
            let pending = connections.values.contains { !$0.established && addresses.contains($0.address) }
            rows.append(
                PeerRecord(
                    peer: target.peer,
                    name: target.name,
                    address: addresses.first,
                    addresses: addresses,
                    source: target.source,
                    state: pending ? .handshaking : target.state,
                    trust: trusted(target.peer),
                    lastError: target.lastError,
                    retryIn: target.retryAt.map { max(0, Double(now.duration(to: $0).components.seconds)) }
                )
            )
        }
        for (peer, refusal) in refusals.sorted(by: { $0.value.at > $1.value.at }) where shown.insert(peer).inserted {
            rows.append(
                PeerRecord(
                    peer: peer,
                    name: nil,
                    address: refusal.address,
                    // Its ephemeral port: not an address to dial.
                    addresses: [],
                    source: .inbound,
                    state: .untrusted,
                    trust: trusted(peer),
                    lastSeen: refusal.at,
                    lastError: "refused: \(refusal.reason)"
                )
            )
        }
        for (peer, name) in relayed where shown.insert(peer).inserted {
            rows.append(
                PeerRecord(
                    peer: peer,
                    name: name,
                    address: nil,
                    addresses: [],
                    source: .relay,
                    state: .relayed,
                    trust: trusted(peer)
                )
            )
        }
        return rows
    }

    var connectedCount: Int { Set(connections.values.filter(\.established).compactMap(\.peer)).count }

    var knownCount: Int {
        var peers = Set(connections.values.compactMap(\.peer))
        var unnamed = 0
        for target in targets.values {
            if let peer = target.peer { peers.insert(peer) } else { unnamed += 1 }
        }
        return peers.count + unnamed
    }
}
