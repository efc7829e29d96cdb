import PeerdModel
import PeerdSync
import PeerdWire

/// Who we know and how each connection stands: the source of `peerctl peers`, and the one place
/// that decides which of two sessions with the same peer survives.
public actor PeerDirectory {
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
    struct DialTarget {
        var address: PeerAddress
        var peer: PeerID?
        var state: PeerRecord.State = .connecting
        var lastError: String?
        var retryAt: ContinuousClock.Instant?
    }

    private let localID: PeerID
    private var connections: [Int: Connection] = [:]
    private var targets: [PeerAddress: DialTarget] = [:]
    private var nextConnectionID = 0

    public init(localID: PeerID) {
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
        if connection.role == .dialer, let target = targets.keys.first(where: { $0.description == connection.address })
        {
            targets[target]?.peer = hello.peer
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

    func isConnected(_ peer: PeerID) -> Bool {
        connections.values.contains { $0.established && $0.peer == peer }
    }

    // MARK: Dial targets

    func addTarget(_ address: PeerAddress) -> Bool {
        guard targets[address] == nil else { return false }
        targets[address] = DialTarget(address: address)
        return true
    }

    func target(_ address: PeerAddress) -> DialTarget? { targets[address] }

    func removeTarget(_ address: PeerAddress) { targets[address] = nil }

    func updateTarget(_ address: PeerAddress, _ update: (inout DialTarget) -> Void) {
        guard var target = targets[address] else { return }
        update(&target)
        targets[address] = target
    }

    // MARK: Reporting

    /// One row per established peer, then one per dial target or pending connection not (yet) matched to one.
    func records(now: ContinuousClock.Instant) -> [PeerRecord] {
        var rows: [PeerRecord] = []
        var shownPeers = Set<PeerID>()
        for (_, c) in connections.sorted(by: { $0.key < $1.key }) where c.established {
            guard let peer = c.peer, shownPeers.insert(peer).inserted else { continue }
            let target = targets.values.first { $0.peer == peer }
            rows.append(
                PeerRecord(
                    peer: peer,
                    name: c.name,
                    address: target?.address.description ?? c.address,
                    source: target == nil ? c.source : .static,
                    state: .connected,
                    connectedSince: c.connectedSince,
                    lastSeen: c.lastSeen,
                    opsSent: c.opsSent,
                    opsReceived: c.opsReceived,
                    lastError: nil,
                    retryIn: nil
                )
            )
        }
        for target in targets.values.sorted(by: { $0.address.description < $1.address.description }) {
            if let peer = target.peer, shownPeers.contains(peer) { continue }
            let pending = connections.values.first { !$0.established && $0.address == target.address.description }
            let retryIn = target.retryAt.map { max(0, Double(now.duration(to: $0).components.seconds)) }
            rows.append(
                PeerRecord(
                    peer: target.peer,
                    name: nil,
                    address: target.address.description,
                    source: .static,
                    state: pending != nil ? .handshaking : target.state,
                    connectedSince: nil,
                    lastSeen: nil,
                    opsSent: 0,
                    opsReceived: 0,
                    lastError: target.lastError,
                    retryIn: retryIn
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
