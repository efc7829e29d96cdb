import PeerdModel
import PeerdWire

/// `peerctl peers`: the directory's state, mapped to the control protocol's records here and only here.
extension PeerDirectory {
    /// One row per established peer, then one per dial target not (yet) matched to one, then one per
    /// inbound peer refused lately, then one per origin known only from relayed operations
    /// (`relayed`: id and latest name, from the replica).
    func records(
        now: ContinuousClock.Instant,
        relayed: [(peer: PeerID, name: String)],
        trust: [PeerID: PeerTrust]
    ) -> [PeerRecord] {
        func trusted(_ peer: PeerID?) -> PeerRecord.Trust? { peer.map { PeerRecord.Trust(trust[$0]) } }
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
                    source: PeerRecord.Source(target?.source ?? c.source),
                    state: .connected,
                    trust: trusted(peer),
                    connectedSince: c.connectedSince,
                    lastSeen: c.lastSeen,
                    opsSent: c.opsSent,
                    opsReceived: c.opsReceived,
                    path: c.via == nil ? .direct : .relay,
                    via: c.via
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
                    source: PeerRecord.Source(target.source),
                    state: pending ? .handshaking : PeerRecord.State(target.phase),
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
}

extension DialTarget {
    /// When it is dialed next, if it waits for a time.
    var retryAt: ContinuousClock.Instant? {
        if case .retrying(let at) = phase { at } else { nil }
    }
}

extension PeerRecord.Source {
    init(_ source: PeerSource) {
        switch source {
        case .named: self = .static
        case .inbound: self = .inbound
        case .mdns: self = .mdns
        case .group: self = .group
        }
    }
}

extension PeerRecord.State {
    init(_ phase: DialTarget.Phase) {
        switch phase {
        case .due, .dialing: self = .connecting
        case .retrying, .gone: self = .retrying
        case .connectedElsewhere: self = .connected
        case .untrusted: self = .untrusted
        }
    }
}

extension PeerRecord.Trust {
    /// A peer on no list is untrusted.
    init(_ trust: PeerTrust?) {
        switch trust {
        case .member: self = .member
        case .revoked: self = .revoked
        case nil: self = .untrusted
        }
    }
}
