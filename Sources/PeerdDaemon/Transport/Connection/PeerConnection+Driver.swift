import Logging
import NIOCore
import PeerdModel
import PeerdSecurity
import PeerdSync
import PeerdWire

extension PeerConnection {
    /// The connection's one loop: each event goes to the machine, and what it returns is carried
    /// out here, with the writer, the actors and the log.
    struct Driver {
        let connection: PeerConnection
        var machine: Machine
        let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
        let sink: AsyncStream<Event>.Continuation
        /// Given back for each frame once handled, or once the replica took its operations.
        let credit: ReadCredit
        /// Which commits wake this connection: kept in step with the session's lazy origins.
        let interest: VectorInterest
        var lazyOrigins: Set<PeerID> = []
        /// A frame is being handled; it handed its operations to the replica, which then gives its
        /// credit back.
        var handlingFrame = false
        var delivering = false
        /// The directory was told the peer has been silent (and must hear when it isn't).
        var reportedSilent = false
        /// How many bytes had arrived at the last tick.
        var arrivedBytes = 0
        let connectionID: Int
        var logger: Logger
        let clock = ContinuousClock()

        init(
            connection: PeerConnection,
            machine: Machine,
            outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
            sink: AsyncStream<Event>.Continuation,
            credit: ReadCredit,
            interest: VectorInterest,
            connectionID: Int
        ) {
            self.connection = connection
            self.machine = machine
            self.outbound = outbound
            self.sink = sink
            self.credit = credit
            self.interest = interest
            self.connectionID = connectionID
            logger = connection.logger
            logger[metadataKey: "address"] = "\(connection.address)"
        }

        mutating func drive(_ events: AsyncStream<Event>) async {
            await write(machine.offer)
            var events = events.makeAsyncIterator()
            while !machine.isClosed, let event = await events.next() {
                await handle(event)
                noteLazyOrigins()
            }
        }

        private mutating func handle(_ event: Event) async {
            let now = clock.now
            switch event {
            case .frame(let frame):
                if machine.needsIdentity { await identify() }
                let action = machine.received(frame, now: now)
                // The trace holds the JSON frames of the peer protocol, not the admission records.
                if case .session = action { connection.trace?.record(sent: false, frame.readableBytesView) }
                (handlingFrame, delivering) = (true, false)
                await perform(action)
                handlingFrame = false
                if !delivering { credit.done() }
            case .inboundEnded(let error):
                let end = Self.end(error)
                if !machine.isClosed { log(end) }
                await perform(machine.inboundEnded(end, now: now))
            case .advanced(let vector): await perform(machine.localAdvanced(to: vector, now: now))
            case .delivered(let result): await perform(machine.delivered(result, now: now))
            case .tick:
                noteArrivals(now)
                if interest.takeMissed() {
                    await perform(machine.localAdvanced(to: await connection.replica.vector, now: now))
                }
                await perform(machine.tick(now: now))
                await noteSilence(now)
            case .closeRequested(let error): await perform(machine.closeRequested(error))
            case .membersChanged: await perform(machine.membersChanged())
            }
        }

        /// The replica wakes this connection only for commits of origins the session pushes at once.
        private mutating func noteLazyOrigins() {
            let lazy = machine.lazyOrigins
            guard lazy != lazyOrigins else { return }
            lazyOrigins = lazy
            interest.setLazy(lazy)
        }

        /// Bytes that arrived since the last tick count as hearing from the peer, though they
        /// don't make a frame yet (proto/PEER.md, "Keepalive and liveness").
        private mutating func noteArrivals(_ now: ContinuousClock.Instant) {
            let count = connection.arriving.count
            guard count != arrivedBytes else { return }
            arrivedBytes = count
            machine.heard(now: now)
        }

        /// A peer silent for longer than a keepalive interval (and some) is told to the directory,
        /// for `peerctl doctor`: its packets may have stopped arriving. Quiet peers cost nothing.
        private mutating func noteSilence(_ now: ContinuousClock.Instant) async {
            guard let heard = machine.lastReceived else { return }
            let silence = heard.duration(to: now)
            let silent = silence > connection.configuration.keepaliveInterval + .seconds(5)
            guard silent || reportedSilent else { return }
            reportedSilent = silent
            await connection.directory.silent(connectionID, for: silent ? silence : nil)
        }

        /// How the frames ended, as the machine tells endings apart.
        private static func end(_ error: (any Error)?) -> Machine.InboundEnd {
            if Task.isCancelled { return .shutdown }
            switch error {
            case nil: return .closed
            case let error as FrameError: return .badFrame(error)
            case let error?: return .lost(PeerTLSError.describe(error))
            }
        }

        private func log(_ end: Machine.InboundEnd) {
            switch end {
            case .closed: logger.info("peer closed the session")
            case .lost(let reason): logger.notice("connection lost", metadata: ["error": "\(reason)"])
            case .badFrame, .shutdown: break  // the session's close says why
            }
        }

        private mutating func identify() async {
            do {
                let remote = try await connection.identify()
                logger[metadataKey: "peer"] = "\(remote.peer.short)"
                let endpoints = AdmissionHandshake.Endpoints(
                    local: connection.identity.peer,
                    localCertificate: connection.identity.certificateDER,
                    remote: remote.peer,
                    remoteCertificate: remote.certificate
                )
                machine.identified(endpoints, policy: await connection.trust.policy())
            } catch {
                machine.identificationFailed(PeerTLSError.describe(error))
            }
        }

        private mutating func perform(_ action: Machine.FrameAction) async {
            switch action {
            case .sendRecord(let record): await write(record)
            case .confirmAdmission(let remote, let via, let invite):
                let confirmed = await connection.trust.admitted(remote, via: via, invite: invite)
                if confirmed { connection.admitted() }
                let hello = connection.localHello(await connection.replica.vector)
                switch machine.admission(confirmed: confirmed, localHello: hello, now: clock.now) {
                case .startSession(let actions): await perform(actions)
                case .refuse(let reason, let record): await refuse(reason, record: record)
                }
            case .refuse(let reason, let record): await refuse(reason, record: record)
            case .refusedByPeer(let reason): logger.notice("peer refused us", metadata: ["reason": "\(reason)"])
            case .session(let actions): await perform(actions)
            }
        }

        /// Admission refused the other side: it gets the refusal record, and an inbound one is listed.
        private func refuse(_ reason: AdmissionRefusal, record: [UInt8]) async {
            logger.notice("refused a peer", metadata: ["reason": "\(reason)"])
            if connection.role == .acceptor, reason != .selfConnection, let remote = machine.outcome.peer {
                await connection.directory.refusedInbound(
                    remote,
                    address: connection.address,
                    reason: "\(reason)",
                    code: DialRecord.Outcome(reason),
                    now: Wallclock.millis()
                )
            }
            try? await outbound.write(ByteBuffer(bytes: record))
        }

        /// Writes a frame body (a JSON one recorded in the trace, if any); a failure goes to the
        /// machine, which closes the session.
        mutating func write(_ body: [UInt8], traced: Bool = false) async {
            if traced { connection.trace?.record(sent: true, body) }
            do {
                try await outbound.write(ByteBuffer(bytes: body))
            } catch {
                await perform(machine.writeFailed("\(error)"))
            }
        }

        /// The outcome, once the loop is over; logged when a session was up.
        func finish() -> ConnectionOutcome {
            let outcome = machine.finished(now: clock.now)
            if outcome.establishedFor != nil {
                logger.info("peer disconnected", metadata: ["reason": "\(outcome.error ?? "closed")"])
            }
            return outcome
        }
    }
}
