import PeerdModel
import PeerdSync
import PeerdWire

/// `peerctl doctor`'s view of the peers: recent dial results, refusals, inbound sessions and the
/// sessions now with their clock skew (proto/CONTROL.md, "diagnose").
extension PeerDirectory {
    /// A dial ended, or the session it made was established.
    func dialed(_ record: DialRecord) {
        dialLog.record(record)
    }

    /// A session is up: the peer's refusals are over, a dialed one is a result, an inbound one is kept.
    func noteEstablished(_ connection: Connection, peer: PeerID) {
        let at = connection.connectedSince ?? 0
        switch connection.role {
        case .dialer:
            let expected = targets.values.first { $0.addresses.contains { $0.description == connection.address } }?.peer
            dialLog.record(
                DialResult(address: connection.address, expected: expected, local: localID)
                    .established(peer: peer, at: at)
            )
            dialLog.admitted(peer, inbound: nil)
        case .acceptor:
            let session = InboundRecord(
                peer: peer,
                name: connection.name,
                address: connection.address,
                port: connection.listenPort,
                at: at
            )
            dialLog.admitted(peer, inbound: session)
        }
    }

    /// The parts of `diagnosis` the directory knows.
    func diagnostics() -> (
        dials: [DialRecord], refusals: [RefusalRecord], inbound: [InboundRecord], sessions: [SessionRecord]
    ) {
        let sessions = connections.sorted { $0.key < $1.key }.compactMap { _, c -> SessionRecord? in
            guard c.established, let peer = c.peer else { return nil }
            return SessionRecord(
                peer: peer,
                name: c.name,
                address: c.address,
                port: c.listenPort,
                direction: c.role == .dialer ? .outbound : .inbound,
                since: c.connectedSince ?? 0,
                skewMs: c.skewMs,
                silentMs: c.silentSince.map { Int64($0.duration(to: .now).components.seconds * 1000) }
            )
        }
        return (dialLog.dials, dialLog.refusals, dialLog.inbound, sessions)
    }
}
