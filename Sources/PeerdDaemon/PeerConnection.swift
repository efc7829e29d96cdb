import Logging
import NIOCore
import PeerdModel
import PeerdSecurity
import PeerdSync
import PeerdWire

/// Carries out one connection with a peer, over TLS: first the `AdmissionHandshake` (binary
/// records, no JSON), then a `PeerSession`, feeding them frames, replica updates and clock ticks and
/// performing the actions they return. All decisions live in those two values.
struct PeerConnection {
    typealias Session = PeerSession<ContinuousClock.Instant>
    typealias Role = Session.Role

    let channel: PeerChannel
    let role: Role
    let address: String
    let source: PeerSource
    /// The id this side dialed expecting (an mDNS announcement's or a join's inviter), if any.
    let expected: PeerID?
    let replica: ReplicaService
    let directory: PeerDirectory
    let trust: TrustService
    let identity: PeerIdentity
    let localHello: @Sendable (VersionVector) -> PeerMessage.Hello
    let configuration: Session.Configuration
    let trace: FrameTrace?
    let logger: Logger

    /// How a session ended, for the dialer's backoff.
    struct Outcome: Sendable {
        var peer: PeerID?
        var establishedFor: Duration?
        var error: String?
        /// The code of the error either side closed with, if any.
        var code: ErrorCode?
        /// Admission refused the other side, or the other side refused us.
        var refusal: AdmissionRefusal?
    }

    /// Where the connection is: admission first, then the session.
    private enum Phase {
        case admitting(AdmissionHandshake?)
        /// We admitted the peer; its first frame is its hello, or a refusal of us.
        case admitted(remote: PeerID)
        case session(remote: PeerID)
    }

    private enum Event: Sendable {
        case frame(ByteBuffer)
        case inboundEnded((any Error)?)
        case advanced(VersionVector)
        case delivered(Result<Int, ReplicaService.Failure>, count: Int)
        case tick
        case closeRequested(WireError)
        case membersChanged
    }

    /// How long the closing `error` frame may wait for a peer that doesn't read.
    private static let finalWriteLimit = Duration.seconds(1)

    func run() async -> Outcome {
        let (events, sink) = AsyncStream.makeStream(of: Event.self)
        let clock = ContinuousClock()
        let connectionID = await directory.opened(address: address, source: source, role: role) { error in
            sink.yield(.closeRequested(error))
        }
        let (subscription, updates) = await replica.vectorUpdates()
        let (trustSubscription, trustUpdates) = await trust.updates()
        var outcome = Outcome()
        var establishedAt: ContinuousClock.Instant?
        var logger = self.logger
        logger[metadataKey: "address"] = "\(address)"
        let nonce = (0..<32).map { _ in UInt8.random(in: 0...255) }
        do {
            try await channel.connection.executeThenClose { inbound, outbound in
                await withDiscardingTaskGroup { group in
                    group.addTask {
                        do {
                            for try await frame in inbound { sink.yield(.frame(frame)) }
                            sink.yield(.inboundEnded(nil))
                        } catch {
                            sink.yield(.inboundEnded(error))
                        }
                    }
                    group.addTask {
                        for await vector in updates { sink.yield(.advanced(vector)) }
                    }
                    group.addTask {
                        for await _ in trustUpdates { sink.yield(.membersChanged) }
                    }
                    group.addTask {
                        while (try? await clock.sleep(for: .seconds(1))) != nil { sink.yield(.tick) }
                    }
                    var phase = Phase.admitting(nil)
                    var session: Session?
                    var rateLimit = RateLimit<ContinuousClock.Instant>()
                    var events = events.makeAsyncIterator()
                    var queue: [Session.Action] = []
                    var closing = false
                    do {
                        try await outbound.write(ByteBuffer(bytes: AdmissionRecord.offer(nonce: nonce)))
                    } catch {
                        outcome.error = "connection failed: \(error)"
                        closing = true
                    }
                    while !closing {
                        while !queue.isEmpty {
                            let action = queue.removeFirst()
                            do {
                                try await perform(action)
                            } catch {
                                outcome.error = outcome.error ?? "write failed: \(error)"
                                queue += session?.failed(WireError(.internal, "write failed: \(error)")) ?? []
                            }
                        }
                        if session?.isClosed == true { break }
                        guard let event = await events.next() else { break }
                        switch (phase, event) {
                        case (.session, _):
                            queue = handle(event)
                        case (.admitting, _), (.admitted, .frame):
                            await admit(event)
                        case (.admitted, _):
                            // The session is up: a bad length header or a close is its business now.
                            queue = handle(event)
                        }
                    }
                    group.cancelAll()
                    // The session is over: `peers` stops showing it now, not when TLS's close is done.
                    await directory.closed(connectionID)

                    /// Admission: feeds the first frames to the handshake and carries out its decision.
                    func admit(_ event: Event) async {
                        switch event {
                        case .frame(let frame):
                            if case .admitted(let remote) = phase {
                                if let refusal = AdmissionRecord.parseRefusal(frame.readableBytesView) {
                                    outcome.refusal = refusal
                                    outcome.error = "refused by the peer: \(refusal)"
                                    logger.notice("peer refused us", metadata: ["reason": "\(refusal)"])
                                    closing = true
                                    return
                                }
                                phase = .session(remote: remote)
                                queue = handle(event)
                                return
                            }
                            guard case .admitting(var handshake) = phase else { return }
                            if handshake == nil {
                                do {
                                    let remote = try await PeerTLS.remote(of: channel.connection.channel)
                                    handshake = AdmissionHandshake(
                                        endpoints: .init(
                                            local: identity.peer,
                                            localCertificate: identity.certificateDER,
                                            remote: remote.peer,
                                            remoteCertificate: remote.certificate
                                        ),
                                        policy: await trust.policy(),
                                        expected: expected,
                                        nonce: nonce
                                    )
                                    outcome.peer = remote.peer
                                    logger[metadataKey: "peer"] = "\(remote.peer.short)"
                                } catch {
                                    outcome.error = "TLS failed: \(error)"
                                    closing = true
                                    return
                                }
                            }
                            guard var machine = handshake else { return }
                            let actions = machine.received(Array(frame.readableBytesView))
                            phase = .admitting(machine)
                            for action in actions {
                                switch action {
                                case .send(let bytes):
                                    do {
                                        try await outbound.write(ByteBuffer(bytes: bytes))
                                    } catch {
                                        outcome.error = "connection failed: \(error)"
                                        closing = true
                                    }
                                case .admit(let via, let invite):
                                    let remote = machine.endpoints.remote
                                    guard await trust.admitted(remote, via: via, invite: invite) else {
                                        await refuse(.notAMember, remote: remote)
                                        return
                                    }
                                    channel.pending.finish()
                                    phase = .admitted(remote: remote)
                                    var started = Session(
                                        role: role,
                                        localHello: localHello(await replica.vector),
                                        now: clock.now,
                                        authenticatedRemote: remote,
                                        configuration: configuration
                                    )
                                    queue = started.start(now: clock.now)
                                    session = started
                                case .refuse(let reason):
                                    await refuse(reason, remote: machine.endpoints.remote)
                                }
                            }
                        case .inboundEnded(let error):
                            outcome.error =
                                error.map { "handshake failed: \(PeerTLSError.describe($0))" }
                                ?? "connection closed during the handshake"
                            closing = true
                        case .closeRequested(let error):
                            outcome.error = error.message
                            closing = true
                        case .advanced, .delivered, .tick, .membersChanged:
                            break
                        }
                    }

                    func refuse(_ reason: AdmissionRefusal, remote: PeerID) async {
                        outcome.refusal = reason
                        outcome.code = reason == .selfConnection ? .selfConnection : nil
                        outcome.error = "refused \(remote.short): \(reason)"
                        logger.notice("refused a peer", metadata: ["reason": "\(reason)"])
                        if role == .acceptor, reason != .selfConnection {
                            await directory.refusedInbound(
                                remote,
                                address: address,
                                reason: "\(reason)",
                                now: Wallclock.millis()
                            )
                        }
                        try? await outbound.write(ByteBuffer(bytes: AdmissionRecord.refusal(reason)))
                        closing = true
                    }

                    func handle(_ event: Event) -> [Session.Action] {
                        guard var current = session else { return [] }
                        defer { session = current }
                        let now = clock.now
                        switch event {
                        case .frame(let frame):
                            trace?.record(sent: false, frame.readableBytesView)
                            let decision = rateLimit.admit(bytes: frame.readableBytes, now: now)
                            guard decision == .admitted else {
                                return current.failed(WireError(.rateLimited, rateLimit.explanation(of: decision)))
                            }
                            do {
                                return current.received(
                                    try WireCoding.decode(PeerMessage.self, from: frame),
                                    now: now
                                )
                            } catch {
                                return current.failed(error)
                            }
                        case .inboundEnded(let error as FrameError):
                            return current.failed(WireError(error.code, error.description))
                        case .inboundEnded where Task.isCancelled:
                            return current.failed(WireError(.shuttingDown, "peerd is shutting down"))
                        case .inboundEnded(nil):
                            // The peer closed its end cleanly (TLS close_notify, then EOF): a close, not an error.
                            logger.info("peer closed the session")
                            return current.transportEnded()
                        case .inboundEnded(let error?):
                            let reason = PeerTLSError.describe(error)
                            outcome.error = "connection lost: \(reason)"
                            logger.notice("connection lost", metadata: ["error": "\(reason)"])
                            return current.transportEnded()
                        case .advanced(let vector):
                            return current.localAdvanced(to: vector, now: now)
                        case .delivered(.success, _):
                            return []
                        case .delivered(.failure(let failure), _):
                            return current.failed(failure.wireError)
                        case .tick:
                            return current.tick(now: now)
                        case .closeRequested(let error):
                            return current.failed(error)
                        case .membersChanged:
                            return current.remote == nil ? [] : [.sendMembers]
                        }
                    }

                    func send(_ message: PeerMessage) async throws {
                        try await outbound.write(traced(WireCoding.encode(message)))
                    }

                    /// The last frame of a session: a peer that stopped reading (its buffer full,
                    /// our writer suspended) gets `finalWriteLimit`, not a session held open.
                    func sendFinal(_ message: PeerMessage) async {
                        let frame = traced(WireCoding.encode(message))
                        await withTaskGroup { group in
                            group.addTask { try? await outbound.write(frame) }
                            group.addTask { try? await Task.sleep(for: Self.finalWriteLimit) }
                            await group.next()
                            group.cancelAll()
                        }
                    }

                    func perform(_ action: Session.Action) async throws {
                        switch action {
                        case .send(let message):
                            try await send(message)
                        case .sendMembers:
                            try await send(.members(await trust.members()))
                        case .sendOperations(let ranges):
                            let sent = try await sendOperations(ranges, to: outbound)
                            await directory.touched(connectionID, now: Wallclock.millis(), sent: sent)
                        case .established(let hello):
                            logger[metadataKey: "peer"] = "\(hello.peer.short)"
                            outcome.peer = hello.peer
                            await trust.named(hello.peer, hello.name)
                            if await directory.established(connectionID, hello: hello, now: Wallclock.millis()) {
                                establishedAt = clock.now
                                logger.info("peer connected", metadata: ["name": "\(hello.name)", "role": "\(role)"])
                                try await send(.members(await trust.members()))
                            } else {
                                sink.yield(
                                    .closeRequested(WireError(.duplicateSession, "already connected to this peer"))
                                )
                            }
                        case .introduced(let members):
                            if let remote = session?.remote?.peer { await trust.introduced(members, by: remote) }
                        case .deliver(let operations):
                            await directory.touched(connectionID, now: Wallclock.millis(), received: operations.count)
                            let count = operations.count
                            await replica.enqueue(operations) { result in sink.yield(.delivered(result, count: count)) }
                        case .close(let error):
                            if let error {
                                outcome.code = outcome.code ?? error.code
                                // Stopping, or keeping the other session with this peer, is no error.
                                let ordinary = error.code == .shuttingDown || error.code == .duplicateSession
                                if !ordinary { outcome.error = error.description }
                                logger.log(
                                    level: ordinary ? (error.code == .duplicateSession ? .debug : .info) : .notice,
                                    "closing peer session",
                                    metadata: ["code": "\(error.code.rawValue)", "reason": "\(error.message)"]
                                )
                                await sendFinal(.error(error))
                            }
                        case .peerReported(let error):
                            outcome.code = error.code
                            // A peer that stops, or keeps another session with us, closes in the ordinary way.
                            let ordinary = error.code == .shuttingDown || error.code == .duplicateSession
                            if !ordinary { outcome.error = "peer said: \(error)" }
                            logger.log(
                                level: ordinary ? (error.code == .duplicateSession ? .debug : .info) : .notice,
                                "peer closed the session",
                                metadata: ["code": "\(error.code.rawValue)", "reason": "\(error.message)"]
                            )
                        }
                    }
                }
            }
        } catch {
            outcome.error = outcome.error ?? "\(error)"
        }
        sink.finish()
        await replica.unsubscribe(subscription)
        await trust.unsubscribe(trustSubscription)
        if let establishedAt {
            outcome.establishedFor = establishedAt.duration(to: clock.now)
            logger.info("peer disconnected", metadata: ["reason": "\(outcome.error ?? "closed")"])
        }
        return outcome
    }
}
