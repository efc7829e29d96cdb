package import PeerdModel
package import PeerdWire

/// The relay tree's messages in a session (proto/PEER.md, "Relay tree"): ``SessionRelay`` decides,
/// these turn its decisions into actions.
extension PeerSession {
    /// The origins this session only announces (none without the relay tree).
    package var lazyOrigins: Set<PeerID> { relay?.lazy ?? [] }

    /// A `have`, `prune` or `graft` from the peer; from one that said in its hello it floods, it is
    /// unexpected.
    mutating func relayed(_ message: PeerMessage, now: Instant) -> [Action] {
        guard var relay, case .established(let remote, var peerHas) = state else {
            return close(WireError(.unexpectedMessage, "'\(message.type)' from a peer that said it floods"))
        }
        switch message {
        case .have(let vector):
            // What the peer holds is what it need not be sent.
            peerHas = peerHas.merged(with: vector)
            state = .established(remote: remote, peerHas: peerHas)
            relay.announced(vector, held: localVector, now: now)
        case .prune(let origins): relay.pruned(origins)
        case .graft(let origins): relay.grafted(origins)
        default: break
        }
        self.relay = relay
        if case .graft = message { return pushMissing(now: now) }
        return []
    }

    /// The peer's operations are durable here; those of `heldAlready` were all held before they
    /// came: prune those origins on this session (the tree reached us another way first).
    package mutating func delivered(heldAlready: Set<PeerID>, now: Instant) -> [Action] {
        guard let relay, !heldAlready.isEmpty else { return [] }
        let origins = relay.prunable(heldAlready)
        guard !origins.isEmpty else { return [] }
        lastSent = now
        return Self.chunked(origins).map { .send(.prune($0)) }
    }

    /// Each tick: a `have` owed, and grafts of origins a `have` showed missing here for a while.
    mutating func relayTick(now: Instant) -> [Action] {
        guard var relay, case .established(_, let peerHas) = state else { return [] }
        let grafts = relay.graftsDue(held: localVector, now: now)
        self.relay = relay
        var actions = Self.chunked(grafts).map { Action.send(.graft($0)) }
        actions += announcement(peerHas: peerHas, now: now)
        if !actions.isEmpty { lastSent = now }
        return actions
    }

    /// A lazy origin holds more here than the other side knows: a `have` is owed, and goes out at
    /// ``nextDeadline(now:)``. Until then the transport need not pass on commits of lazy origins.
    package var owesHave: Bool {
        guard let relay, case .established(_, let peerHas) = state else { return false }
        return relay.hasNews(held: localVector, peerHas: peerHas)
    }

    /// A `have` of everything held here, when one is due on this session.
    mutating func announcement(peerHas: VersionVector, now: Instant) -> [Action] {
        guard var relay else { return [] }
        let due = relay.haveDue(held: localVector, peerHas: peerHas, now: now)
        self.relay = relay
        return due ? [.send(.have(localVector))] : []
    }

    /// Origins in messages of at most `PeerMessage.maxOrigins`.
    private static func chunked(_ origins: [PeerID]) -> [[PeerID]] {
        stride(from: 0, to: origins.count, by: PeerMessage.maxOrigins).map {
            Array(origins[$0..<min($0 + PeerMessage.maxOrigins, origins.count)])
        }
    }
}
