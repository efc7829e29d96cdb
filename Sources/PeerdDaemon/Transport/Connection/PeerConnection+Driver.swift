import Logging
import NIOCore
import PeerdModel
import PeerdSecurity
import PeerdSync
import PeerdWire

extension PeerConnection {
    /// The connection's one loop: each event goes to the machine, and what it returns is carried
    /// out here, with the writer, the actors and the log. After each, the timer is set at the
    /// machine's next deadline.
    struct Driver {
        let connection: PeerConnection
        var machine: Machine
        let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
        /// Which commits wake this connection: kept in step with the session's lazy origins.
        let interest: VectorInterest
        var lazyOrigins: Set<PeerID> = []
        /// The directory was told the peer has been silent (and must hear when it isn't).
        var reportedSilent = false
        /// What the timer is set for now (nil: not set).
        var timer: ContinuousClock.Instant?
        /// The lists open on this connection, with what feeds each (``PeerConnection/Driver/ListFeed``).
        var lists: [ListID: ListFeed] = [:]
        /// The lists shared with the peer when last looked at: one that leaves it is closed.
        var sharedLists: Set<ListID> = []
        let connectionID: Int
        var logger: Logger
        let clock = ContinuousClock()

        init(
            connection: PeerConnection,
            machine: Machine,
            outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
            interest: VectorInterest,
            connectionID: Int
        ) {
            self.connection = connection
            self.machine = machine
            self.outbound = outbound
            self.interest = interest
            self.connectionID = connectionID
            logger = connection.logger
            logger[metadataKey: "address"] = "\(connection.address)"
        }

        /// Reads the channel's inbound sequence until the session closes or the sequence ends.
        mutating func drive(_ inbound: NIOAsyncChannelInboundStream<Event>) async {
            await write(machine.offer)
            var events = inbound.makeAsyncIterator()
            do {
                while !machine.isClosed, let event = try await events.next() {
                    await handle(event)
                    await afterEvent()
                }
                if !machine.isClosed { await inboundEnded(nil) }
            } catch {
                await inboundEnded(error)
            }
            stopFeedingLists()
        }

        private mutating func handle(_ event: Event) async {
            let now = clock.now
            switch event {
            case .frame(let frame):
                if machine.needsIdentity { await identify() }
                let action = machine.received(frame, now: now)
                // The trace holds the JSON frames of the peer protocol, not the admission records.
                if case .session = action { connection.trace?.record(sent: false, frame.readableBytesView) }
                await perform(action)
                if reportedSilent { await noteSilence(now) }
            case .advanced(let vector): await perform(machine.localAdvanced(to: vector, now: now))
            case .delivered(let result): await perform(machine.delivered(result, now: now))
            case .tick:
                timer = nil
                noteArrivals()
                if interest.takeMissed() {
                    await perform(machine.localAdvanced(to: await connection.replica.vector, now: now))
                }
                await perform(machine.tick(now: now))
                await noteSilence(now)
            case .closeRequested(let error): await perform(machine.closeRequested(error))
            case .membersChanged: await perform(machine.membersChanged())
            case .catalog(let message): await perform(machine.catalogMessage(message, now: now))
            case .listsChanged: await shareLists()
            case .listAdvanced(let list, let vector): await perform(machine.listAdvanced(list, to: vector, now: now))
            case .listDelivered(let list, let result): await perform(machine.listDelivered(list, result, now: now))
            }
        }

        /// The stream of frames ended (nil: cleanly), or failed.
        private mutating func inboundEnded(_ error: (any Error)?) async {
            let end = Self.end(error)
            if !machine.isClosed { log(end) }
            await perform(machine.inboundEnded(end, now: clock.now))
        }

        /// What every event may have changed: which commits wake the connection, and its timer.
        private mutating func afterEvent() async {
            var outlook = machine.outlook(now: clock.now)
            noteLazyOrigins(outlook.lazyOrigins)
            if !outlook.owesHave, interest.arm() {
                // Committed while no one was told: a `have` may be owed now.
                await perform(machine.localAdvanced(to: await connection.replica.vector, now: clock.now))
                outlook = machine.outlook(now: clock.now)
                noteLazyOrigins(outlook.lazyOrigins)
            }
            setTimer(outlook)
        }

        /// The replica wakes this connection only for commits of origins the session pushes at once.
        private mutating func noteLazyOrigins(_ lazy: Set<PeerID>) {
            guard lazy != lazyOrigins else { return }
            lazyOrigins = lazy
            interest.setLazy(lazy)
        }

        /// Sets the timer at the machine's next deadline, or when a silent peer is to be reported.
        /// A deadline that moved only a little later keeps the timer set: a busy session's move
        /// with every frame sent or received, and a timer that fires a little early only ticks for
        /// nothing and is set again.
        private mutating func setTimer(_ outlook: Machine.Outlook) {
            var next = outlook.deadline
            if !reportedSilent, let heard = outlook.lastReceived {
                let report = heard + connection.configuration.keepaliveInterval + Self.silenceReportMargin
                next = min(next ?? report, report)
            }
            guard let next, !machine.isClosed else { return }
            let slack = connection.configuration.keepaliveInterval / 10
            if let timer, timer <= next, next < timer + slack { return }
            timer = next
            connection.mailbox.setTimer(at: next, now: clock.now)
        }

        /// Bytes that arrived since the last frame count as hearing from the peer, though they
        /// don't make a frame yet (proto/PEER.md, "Keepalive and liveness").
        private mutating func noteArrivals() {
            guard let arrival = connection.arriving.lastArrival else { return }
            machine.heard(now: arrival)
        }

        /// How much longer than a keepalive interval a peer is silent before the directory hears of it.
        static let silenceReportMargin = Duration.seconds(5)

        /// A peer silent for longer than a keepalive interval (and some) is told to the directory,
        /// for `peerctl doctor`: its packets may have stopped arriving. Quiet peers cost nothing.
        private mutating func noteSilence(_ now: ContinuousClock.Instant) async {
            guard let heard = machine.lastReceived else { return }
            let silence = heard.duration(to: now)
            let silent = silence >= connection.configuration.keepaliveInterval + Self.silenceReportMargin
            guard silent || reportedSilent else { return }
            reportedSilent = silent
            await connection.directory.silent(connectionID, since: silent ? heard : nil)
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
            case .refusedByPeer(let reason):
                logger.notice("peer refused us", metadata: ["reason": "\(reason)"])
                guard let remote = machine.outcome.peer else { return }
                let (spent, proof) = (machine.outcome.spentInvite, machine.outcome.proof)
                await connection.trust.refused(by: remote, reason, spent: spent, proof: proof)
                if reason == .removed, let spent {
                    await connection.toldRemoved(Membership.removedWords(by: spent.inviter ?? "a member", at: spent.at))
                }
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
