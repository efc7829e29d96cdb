package import NIOCore
package import PeerdModel
package import PeerdSecurity
package import PeerdWire

/// One connection with a peer, after TCP and TLS, as a plain value: first the admission records
/// (``AdmissionHandshake``), then the ``PeerSession``, with the per-connection ``RateLimit`` and the
/// ``ConnectionOutcome`` it builds as it goes. Each event returns what the transport must do, in the
/// manner of SwiftNIO's and Hummingbird's state machines; the driver (`PeerConnection`) only
/// carries it out. See proto/SECURITY.md ("The handshake") and proto/PEER.md.
package struct PeerConnectionStateMachine<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    package typealias Session = PeerSession<Instant>

    enum Phase: Sendable {
        /// TLS is up but its certificate not looked at yet: the driver supplies it with the first frame.
        case identifying
        case admitting(AdmissionHandshake)
        /// We admitted the peer and sent our hello; its next frame is its hello, or its refusal of us.
        case admitted
        case session
        case closed
    }

    /// What to do with a frame that arrived.
    package enum FrameAction: Hashable, Sendable {
        /// Send this admission record.
        case sendRecord([UInt8])
        /// The handshake admits the peer: the trust list must agree (pinning it when `via` is new),
        /// then call ``admission(confirmed:localHello:now:)``.
        case confirmAdmission(remote: PeerID, via: TrustList.Via?, invite: Int?)
        /// Send this refusal record and close.
        case refuse(AdmissionRefusal, record: [UInt8])
        /// The peer refused us: close.
        case refusedByPeer(AdmissionRefusal)
        case session([Session.Action])
    }

    /// What the trust list's answer to ``FrameAction/confirmAdmission(remote:via:invite:)`` leads to.
    package enum AdmissionAction: Hashable, Sendable {
        /// Admitted: the session starts (its hello goes out).
        case startSession([Session.Action])
        case refuse(AdmissionRefusal, record: [UInt8])
    }

    /// How the stream of frames from the peer ended.
    package enum InboundEnd: Hashable, Sendable {
        /// TLS closed cleanly (close_notify), then the end of the stream.
        case closed
        /// A frame header or body was refused (a length over the limit, a truncated frame).
        case badFrame(FrameError)
        /// A reset, TCP closed without close_notify, a TLS failure.
        case lost(String)
        /// This daemon is shutting down.
        case shutdown
    }

    package let role: Session.Role
    /// The id this side dialed expecting (an mDNS announcement's or a join's inviter), if any.
    package let expected: PeerID?
    package let configuration: Session.Configuration
    /// Our admission offer, with a fresh nonce: sent first, at once.
    package let offer: [UInt8]
    package private(set) var outcome = ConnectionOutcome()
    private let nonce: [UInt8]
    private var phase = Phase.identifying
    var session: Session?
    /// The sessions of the lists open on this connection (proto/PEER.md, "How a list travels").
    var lists: [ListID: Session] = [:]
    /// The hellos of lists the peer opened that are not open here, until the driver answers.
    var offers: [ListID: PeerMessage.Hello] = [:]
    private var rateLimit: RateLimit<Instant>
    private var establishedAt: Instant?

    package init(
        role: Session.Role,
        expected: PeerID?,
        configuration: Session.Configuration = .init(),
        rateLimit: RateLimit<Instant>.Configuration = .init(),
        using generator: inout some RandomNumberGenerator
    ) {
        self.role = role
        self.expected = expected
        self.configuration = configuration
        self.rateLimit = RateLimit(configuration: rateLimit)
        nonce = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        offer = AdmissionRecord.offer(nonce: nonce)
    }

    package var isClosed: Bool {
        if case .closed = phase { true } else { false }
    }

    /// True until ``identified(_:policy:)``: the first frame needs the TLS certificate first.
    package var needsIdentity: Bool {
        if case .identifying = phase { true } else { false }
    }

    /// The session's state once it has the peer's hello.
    package var remote: PeerMessage.Hello? { session?.remote }

    /// The origins the relay tree only announces on this session, not pushes.
    package var lazyOrigins: Set<PeerID> { session?.lazyOrigins ?? [] }

    /// When the last frame came from the peer, once the session started.
    package var lastReceived: Instant? { session?.lastReceived }

    // MARK: Admission

    /// TLS showed who the other end is; `policy` is the trust list as admission sees it now.
    package mutating func identified(_ endpoints: AdmissionHandshake.Endpoints, policy: AdmissionPolicy) {
        guard case .identifying = phase else { return }
        outcome.peer = endpoints.remote
        outcome.reached = .admission
        let handshake = AdmissionHandshake(endpoints: endpoints, policy: policy, expected: expected, nonce: nonce)
        outcome.proof = handshake.proofMethod
        phase = .admitting(handshake)
    }

    /// TLS failed before it could show a certificate.
    package mutating func identificationFailed(_ reason: String) {
        outcome.error = "TLS failed: \(reason)"
        phase = .closed
    }

    package mutating func received(_ frame: ByteBuffer, now: Instant) -> FrameAction {
        switch phase {
        case .identifying, .closed:
            return .session([])
        case .admitting(var handshake):
            let actions = handshake.received(Array(frame.readableBytesView))
            phase = .admitting(handshake)
            return admissionStep(actions.first, remote: handshake.endpoints.remote)
        case .admitted:
            if let refusal = AdmissionRecord.parseRefusal(frame.readableBytesView) {
                outcome.refusal = refusal
                outcome.spentInvite = AdmissionRecord.parseSpentInvite(frame.readableBytesView)
                outcome.refusedByPeer = true
                outcome.error = "refused by the peer: \(refusal)"
                phase = .closed
                return .refusedByPeer(refusal)
            }
            outcome.reached = .session
            phase = .session
            return .session(sessionFrame(frame, now: now))
        case .session:
            return .session(sessionFrame(frame, now: now))
        }
    }

    private mutating func admissionStep(_ action: AdmissionHandshake.Action?, remote: PeerID) -> FrameAction {
        switch action {
        case .send(let bytes)?: return .sendRecord(bytes)
        case .admit(let via, let invite)?: return .confirmAdmission(remote: remote, via: via, invite: invite)
        // Nothing is pinned now: the trust list pins the inviter at its hello (`TrustService.named`).
        case .admitInviter?: return .confirmAdmission(remote: remote, via: nil, invite: nil)
        case .refuse(let reason)?: return refuse(reason, remote: remote)
        case .refuseSpentInvite(let spent)?:
            return refuse(spent.refusal, remote: remote, record: AdmissionRecord.refusal(spent))
        case nil: return .session([])
        }
    }

    private mutating func refuse(_ reason: AdmissionRefusal, remote: PeerID, record: [UInt8]? = nil) -> FrameAction {
        outcome.refusal = reason
        outcome.code = reason == .selfConnection ? .selfConnection : nil
        outcome.error = "refused \(remote.short): \(reason)"
        phase = .closed
        return .refuse(reason, record: record ?? AdmissionRecord.refusal(reason))
    }

    /// The trust list agreed to the handshake's admission (or, when an invite was used up meanwhile, not).
    package mutating func admission(
        confirmed: Bool,
        localHello: PeerMessage.Hello,
        now: Instant
    ) -> AdmissionAction {
        guard case .admitting(let handshake) = phase else { return .startSession([]) }
        let remote = handshake.endpoints.remote
        guard confirmed else {
            guard case .refuse(let reason, let record) = refuse(.notAMember, remote: remote) else {
                return .startSession([])
            }
            return .refuse(reason, record: record)
        }
        var started = Session(
            role: role,
            localHello: localHello,
            now: now,
            authenticatedRemote: remote,
            configuration: configuration
        )
        phase = .admitted
        let actions = started.start(now: now)
        session = started
        return .startSession(actions)
    }

    // MARK: The session

    private mutating func sessionFrame(_ frame: ByteBuffer, now: Instant) -> [Session.Action] {
        let decision = rateLimit.admit(bytes: frame.readableBytes, now: now)
        guard decision == .admitted else {
            let error = WireError(.rateLimited, rateLimit.explanation(of: decision))
            return withSession { $0.failed(error) }
        }
        do {
            let message = try WireCoding.decode(PeerMessage.self, from: frame)
            if case .list(let id, let inner) = message, carriesLists {
                session?.heard(now: now)
                return listReceived(id, inner, now: now)
            }
            return withSession { $0.received(message, now: now) }
        } catch {
            return withSession { $0.failed(error) }
        }
    }

    /// The stream of frames from the peer ended.
    package mutating func inboundEnded(_ end: InboundEnd, now: Instant) -> [Session.Action] {
        guard session != nil else {
            if !isClosed {
                outcome.error = outcome.error ?? Self.handshakeEnd(end)
                phase = .closed
            }
            return []
        }
        switch end {
        case .badFrame(let error): return withSession { $0.failed(WireError(error.code, error.description)) }
        case .shutdown: return withSession { $0.failed(WireError(.shuttingDown, "peerd is shutting down")) }
        case .closed: return withSession { $0.transportEnded() }
        case .lost(let reason):
            outcome.error = outcome.error ?? "connection lost: \(reason)"
            return withSession { $0.transportEnded() }
        }
    }

    private static func handshakeEnd(_ end: InboundEnd) -> String {
        switch end {
        case .closed: "connection closed during the handshake"
        case .badFrame(let error): "handshake failed: \(error)"
        case .lost(let reason): "handshake failed: \(reason)"
        case .shutdown: "peerd is shutting down"
        }
    }

    package mutating func localAdvanced(to vector: VersionVector, now: Instant) -> [Session.Action] {
        withSession { $0.localAdvanced(to: vector, now: now) }
    }

    /// The replica took the peer's operations (with the origins whose operations it all held
    /// already), or refused them, or could not persist them.
    package mutating func delivered(_ result: Result<Set<PeerID>, WireError>, now: Instant) -> [Session.Action] {
        switch result {
        case .success(let heldAlready): withSession { $0.delivered(heldAlready: heldAlready, now: now) }
        case .failure(let failure): withSession { $0.failed(failure) }
        }
    }

    /// Bytes arrived from the peer, a frame or part of one.
    package mutating func heard(now: Instant) {
        session?.heard(now: now)
    }

    /// Timers: the session's, and the relay tree's of each list's session.
    package mutating func tick(now: Instant) -> [Session.Action] {
        withSession { $0.tick(now: now) } + listsTick(now: now)
    }

    /// What the transport looks at after each event, in one look.
    package struct Outlook: Sendable {
        /// When ``tick(now:)`` next has something to do (``PeerSession/nextDeadline(now:)``, of the
        /// session and of the lists' sessions); nil before the session starts (admission has its own
        /// deadline, in the transport) and once closed.
        package var deadline: Instant?
        /// The session owes the peer a `have` (``PeerSession/owesHave``).
        package var owesHave = false
        package var lazyOrigins: Set<PeerID> = []
        package var lastReceived: Instant?
    }

    /// The session's ``Outlook``. One call rather than four: from another module the machine's code
    /// is not specialized, and each look copies the session through its value witnesses (measured:
    /// looking four times after every event cost a full mesh of 10 about 10% more CPU under load).
    package func outlook(now: Instant) -> Outlook {
        guard !isClosed, let session else { return Outlook() }
        var deadline = session.nextDeadline(now: now)
        for list in lists.values {
            if let due = list.nextDeadline(now: now) { deadline = min(deadline ?? due, due) }
        }
        return Outlook(
            deadline: deadline,
            owesHave: session.owesHave,
            lazyOrigins: session.lazyOrigins,
            lastReceived: session.lastReceived
        )
    }

    /// The directory or `peerctl forget` closes this connection.
    package mutating func closeRequested(_ error: WireError) -> [Session.Action] {
        guard session != nil else {
            if !isClosed {
                outcome.error = error.message
                phase = .closed
            }
            return []
        }
        return withSession { $0.failed(error) }
    }

    /// A catalog `query` of ours, or an `answer` to the peer's, to send.
    package mutating func catalogMessage(_ message: PeerMessage, now: Instant) -> [Session.Action] {
        withSession { $0.catalogMessage(message, now: now) }
    }

    /// The trust list changed: an established session sends `members` again.
    package mutating func membersChanged() -> [Session.Action] {
        session?.remote == nil ? [] : [.sendMembers]
    }

    /// A write to the peer failed.
    package mutating func writeFailed(_ reason: String) -> [Session.Action] {
        outcome.error = outcome.error ?? "write failed: \(reason)"
        guard session != nil else {
            phase = .closed
            return []
        }
        return withSession { $0.failed(WireError(.internal, "write failed: \(reason)")) }
    }

    /// The directory's verdict on ``PeerSession/Action/established(_:)``: kept (nil), or why not:
    /// another session with the peer wins, or its key was removed while the handshake ran.
    package mutating func established(refusal: WireError?, now: Instant) -> [Session.Action] {
        if let refusal { return withSession { $0.failed(refusal) } }
        establishedAt = now
        return [.sendMembers]
    }

    /// The connection is over: the outcome, with how long the session was established.
    package func finished(now: Instant) -> ConnectionOutcome {
        var outcome = outcome
        outcome.establishedFor = establishedAt.map { $0.duration(to: now) }
        return outcome
    }

    /// Runs `body` on the session, notes what the actions close with, and ends the connection with it.
    private mutating func withSession(_ body: (inout Session) -> [Session.Action]) -> [Session.Action] {
        guard var current = session else { return [] }
        let actions = body(&current)
        session = current
        outcome.note(actions)
        if current.isClosed { phase = .closed }
        return actions
    }
}
