package import PeerdModel
package import PeerdWire

/// The state of one peer connection, as a plain value: inputs go in, `Action`s come out, and the
/// transport only carries the actions out. See proto/PEER.md for the rules it implements.
///
/// Catch-up and live push are one rule: `peerHas` is what the other side is known to hold (its hello
/// vector, plus everything sent to it or received from it); whenever the local vector is ahead of it,
/// the difference is sent. Relaying falls out of the same rule, and nothing is echoed to its sender.
package struct PeerSession<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    package enum Role: String, Sendable {
        /// We opened the TCP connection.
        case dialer
        /// The other side did.
        case acceptor
    }

    package struct Configuration: Sendable {
        package var handshakeTimeout: Duration = .seconds(5)
        package var keepaliveInterval: Duration = .seconds(10)
        /// Silence for this many keepalive intervals closes the session.
        package var missedKeepalives = 3
        /// Take part in the relay tree with peers that do (proto/PEER.md, "Relay tree"); off, flood.
        package var relayTree = true
        package var relayTiming = SessionRelay<Instant>.Timing()
        /// False for a list's session inside a connection (proto/PEER.md, "How a list travels"): no
        /// hello deadline, no `ping` and no silence timeout, since the connection's keepalive covers
        /// the peer; only the relay tree's timers remain.
        package var keepsAlive = true

        package init() {}
    }

    package enum Action: Hashable, Sendable {
        case send(PeerMessage)
        /// Send these operations, per origin in ascending seq order, in `ops` frames.
        case sendOperations([SendRange])
        /// The handshake completed: register the session (and resolve duplicates).
        case established(PeerMessage.Hello)
        /// Persist, apply and relay these operations from the peer.
        case deliver([Operation])
        /// Close the connection, first sending `error` when one is given.
        case close(WireError?)
        /// The peer sent an error and is closing; log it.
        case peerReported(WireError)
        /// The peer listed the members it trusts: trust them too (unless revoked here).
        case introduced([PeerMessage.Member])
        /// Send a `members` message with the trust list as it is now (the transport knows it).
        case sendMembers
        /// The peer asks this side's catalog (TMDB): answer with ``PeerSession/answering(_:now:)``.
        case queried(CatalogQuery)
        /// The peer answered one of our queries.
        case answered(CatalogAnswer)
        // A list's session inside the connection (proto/PEER.md, "How a list travels"): what the
        // connection's machine makes of its sessions' actions (``PeerConnectionStateMachine``).
        /// Send these operations of the list, in its `list` frames.
        case sendListOperations(ListID, [SendRange])
        /// Persist, apply and relay these operations of the list, from the peer; then call
        /// ``PeerConnectionStateMachine/listDelivered(_:_:now:)``.
        case deliverList(ListID, [Operation])
        /// The peer opened a list whose session is not open here: answer with
        /// ``PeerConnectionStateMachine/openList(_:localHello:now:)`` or
        /// ``PeerConnectionStateMachine/closeList(_:_:)``.
        case listOffered(ListID)
        /// The list's session ended, the connection goes on: stop feeding it. The error is why (the
        /// peer's, or the one sent it), if there was one.
        case listEnded(ListID, WireError?)
    }

    package struct SendRange: Hashable, Sendable {
        package var origin: PeerID
        package var seqs: ClosedRange<UInt64>

        package init(origin: PeerID, seqs: ClosedRange<UInt64>) {
            self.origin = origin
            self.seqs = seqs
        }
    }

    enum State: Sendable {
        case awaitingHello(deadline: Instant)
        case established(remote: PeerMessage.Hello, peerHas: VersionVector)
        case closed
    }

    package let role: Role
    package let localHello: PeerMessage.Hello
    package let configuration: Configuration
    /// The id TLS authenticated for the other end (its certificate's fingerprint): its hello must
    /// say the same.
    package let authenticatedRemote: PeerID?
    var state: State
    var localVector: VersionVector
    /// This session's part in the relay tree, once established with a peer that takes part.
    var relay: SessionRelay<Instant>?
    /// When the last frame, or part of one, came from the peer.
    package private(set) var lastReceived: Instant
    var lastSent: Instant

    /// A new session; `start` gives the actions that open it.
    package init(
        role: Role,
        localHello: PeerMessage.Hello,
        now: Instant,
        authenticatedRemote: PeerID? = nil,
        configuration: Configuration = .init()
    ) {
        self.role = role
        self.authenticatedRemote = authenticatedRemote
        self.localHello = localHello
        self.configuration = configuration
        localVector = localHello.vector
        state = .awaitingHello(deadline: now.advanced(by: configuration.handshakeTimeout))
        lastReceived = now
        lastSent = now
    }

    /// The other side's hello, once the handshake is done.
    package var remote: PeerMessage.Hello? {
        if case .established(let remote, _) = state { remote } else { nil }
    }

    package var isClosed: Bool {
        if case .closed = state { true } else { false }
    }

    /// Both sides speak first: send our hello.
    package mutating func start(now: Instant) -> [Action] {
        lastSent = now
        return [.send(.hello(localHello))]
    }

    package mutating func received(_ message: PeerMessage, now: Instant) -> [Action] {
        lastReceived = now
        switch (state, message) {
        case (.closed, _):
            return []
        case (_, .error(let error)):
            state = .closed
            return [.peerReported(error), .close(nil)]
        case (.awaitingHello, .hello(let hello)):
            if hello.peer == localHello.peer {
                return close(WireError(.selfConnection, "this address is this peerd itself"))
            }
            if let authenticatedRemote, hello.peer != authenticatedRemote {
                return close(
                    WireError(
                        .unexpectedMessage,
                        "hello says peer \(hello.peer) but the TLS certificate is \(authenticatedRemote)'s"
                    )
                )
            }
            state = .established(remote: hello, peerHas: hello.vector)
            if configuration.relayTree, localHello.tree == true, hello.tree == true {
                relay = SessionRelay(local: localHello.peer, remote: hello.peer, timing: configuration.relayTiming)
            }
            return [.established(hello)] + pushMissing(now: now)
        case (.awaitingHello, _):
            return close(WireError(.unexpectedMessage, "'\(message.type)' before 'hello'"))
        case (.established, .hello):
            return close(WireError(.unexpectedMessage, "a second 'hello'"))
        case (.established(let remote, var peerHas), .ops(let operations)):
            // The peer holds what it sends us, so it is never sent back (no echo when relaying).
            for op in operations where op.id.seq > peerHas[op.id.origin] {
                peerHas[op.id.origin] = op.id.seq
            }
            state = .established(remote: remote, peerHas: peerHas)
            return operations.isEmpty ? [] : [.deliver(operations)]
        case (.established, .ping):
            lastSent = now
            return [.send(.pong)]
        case (.established, .pong):
            return []
        case (.established, .members(let members)):
            return [.introduced(members)]
        case (.established, .have), (.established, .prune), (.established, .graft):
            return relayed(message, now: now)
        case (.established, .query(let query)):
            return [.queried(query)]
        case (.established, .answer(let answer)):
            return [.answered(answer)]
        case (.established, .list):
            // The connection routes a list's messages to its session when both hellos said `lists`.
            return close(WireError(.unexpectedMessage, "'list' from a peer whose hello did not say it carries lists"))
        }
    }

    /// Sends a catalog `query` or `answer` the transport made, once established (else nothing:
    /// the asker hears of the session's end instead).
    package mutating func catalogMessage(_ message: PeerMessage, now: Instant) -> [Action] {
        guard case .established = state else { return [] }
        lastSent = now
        return [.send(message)]
    }

    /// Bytes arrived from the peer, though maybe not a whole frame yet: on a slow link a large
    /// frame takes many seconds, and the peer is alive all the while.
    package mutating func heard(now: Instant) {
        if lastReceived < now { lastReceived = now }
    }

    /// The local replica now holds `vector`: push what the peer lacks.
    package mutating func localAdvanced(to vector: VersionVector, now: Instant) -> [Action] {
        localVector = localVector.merged(with: vector)
        return pushMissing(now: now)
    }

    /// Timers: the handshake deadline, keepalive pings, the silence timeout and the relay tree's.
    /// Before ``nextDeadline(now:)`` there is nothing to do, so a transport need only tick then.
    package mutating func tick(now: Instant) -> [Action] {
        switch state {
        case .closed:
            return []
        case .awaitingHello(let deadline):
            guard configuration.keepsAlive, now >= deadline else { return [] }
            return close(WireError(.timeout, "no hello within \(configuration.handshakeTimeout)"))
        case .established:
            guard configuration.keepsAlive else { return relayTick(now: now) }
            if now >= silenceDeadline {
                let silence = configuration.keepaliveInterval * configuration.missedKeepalives
                return close(WireError(.timeout, "nothing received for \(silence)"))
            }
            let relaying = relayTick(now: now)
            guard relaying.isEmpty, now >= pingDue else { return relaying }
            lastSent = now
            return [.send(.ping)]
        }
    }

    /// When ``tick(now:)`` next has something to do, at `now` or later: the handshake deadline, a
    /// keepalive ping, the silence timeout, or the relay tree's `have` or graft. Nil once closed, and
    /// when nothing is due (a session that does not keep alive).
    /// Every other input comes with its own event, so a transport sets one timer for this, not a
    /// tick every second.
    package func nextDeadline(now: Instant) -> Instant? {
        switch state {
        case .closed:
            return nil
        case .awaitingHello(let deadline):
            return configuration.keepsAlive ? deadline : nil
        case .established(_, let peerHas):
            let relaying = relay?.nextDeadline(held: localVector, peerHas: peerHas, now: now)
            guard configuration.keepsAlive else { return relaying }
            return min(silenceDeadline, pingDue, relaying ?? pingDue)
        }
    }

    /// The session closes for silence when nothing at all has come for this many keepalive intervals.
    var silenceDeadline: Instant {
        lastReceived.advanced(by: configuration.keepaliveInterval * configuration.missedKeepalives)
    }

    /// Our `ping` falls due a keepalive interval after we last sent anything. The accepting side
    /// waits a tenth of an interval more, so that on a quiet session the dialer's ping arrives
    /// first and the acceptor's `pong` starts its wait again: one ping and one pong an interval,
    /// not two of each (proto/PEER.md, "Keepalive and liveness").
    var pingDue: Instant {
        let grace = role == .acceptor ? configuration.keepaliveInterval / 10 : .zero
        return lastSent.advanced(by: configuration.keepaliveInterval + grace)
    }

    /// The transport or the replica found the peer's input unacceptable.
    package mutating func failed(_ error: WireError) -> [Action] {
        close(error)
    }

    /// The connection ended under the session: the peer closed its end, or it was lost. Nothing
    /// more can be sent, so the session closes without an `error`.
    package mutating func transportEnded() -> [Action] {
        close(nil)
    }

    mutating func close(_ error: WireError?) -> [Action] {
        if case .closed = state { return [] }
        state = .closed
        return [.close(error)]
    }

    /// Sends what the peer lacks of the origins pushed on this session; the relay tree's lazy
    /// origins are only announced, in a `have` when one is due.
    mutating func pushMissing(now: Instant) -> [Action] {
        guard case .established(let remote, var peerHas) = state else { return [] }
        let missing = localVector.missing(from: peerHas).filter { relay?.isLazy($0.origin) != true }
        for range in missing { peerHas[range.origin] = range.seqs.upperBound }
        state = .established(remote: remote, peerHas: peerHas)
        let have = announcement(peerHas: peerHas, now: now)
        guard !missing.isEmpty else { return have }
        lastSent = now
        return [.sendOperations(missing.map { SendRange(origin: $0.origin, seqs: $0.seqs) })] + have
    }
}
