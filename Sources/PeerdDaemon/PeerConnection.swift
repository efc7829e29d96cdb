import Logging
import NIOCore
import PeerdModel
import PeerdSync
import PeerdWire

/// Carries out one `PeerSession` over one TCP connection: feeds it frames, replica updates and
/// clock ticks, and performs the actions it returns. All decisions live in the session.
struct PeerConnection {
    typealias Session = PeerSession<ContinuousClock.Instant>

    let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
    let role: Session.Role
    let address: String
    let source: PeerRecord.Source
    let replica: ReplicaService
    let directory: PeerDirectory
    let localHello: @Sendable (VersionVector) -> PeerMessage.Hello
    let configuration: Session.Configuration
    let logger: Logger

    /// How a session ended, for the dialer's backoff.
    struct Outcome: Sendable {
        var peer: PeerID?
        var establishedFor: Duration?
        var error: String?
        /// The code of the error either side closed with, if any.
        var code: ErrorCode?
    }

    private enum Event: Sendable {
        case frame(ByteBuffer)
        case inboundEnded((any Error)?)
        case advanced(VersionVector)
        case delivered(Result<Int, ReplicaService.Failure>, count: Int)
        case tick
        case closeRequested(WireError)
    }

    /// How many operations one read from the replica fetches while catching a peer up: enough to
    /// make the actor hops negligible, few enough that the copy stays small (about 200 KB).
    private static let opsPerFetch = 2_000

    func run() async -> Outcome {
        let (events, sink) = AsyncStream.makeStream(of: Event.self)
        let clock = ContinuousClock()
        let connectionID = await directory.opened(address: address, source: source, role: role) { error in
            sink.yield(.closeRequested(error))
        }
        let (subscription, updates) = await replica.vectorUpdates()
        var outcome = Outcome()
        var establishedAt: ContinuousClock.Instant?
        var logger = self.logger
        logger[metadataKey: "address"] = "\(address)"
        do {
            try await channel.executeThenClose { inbound, outbound in
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
                        while (try? await clock.sleep(for: .seconds(1))) != nil { sink.yield(.tick) }
                    }
                    var session = Session(
                        role: role,
                        localHello: localHello(await replica.vector),
                        now: clock.now,
                        configuration: configuration
                    )
                    var queue = session.start(now: clock.now)
                    var events = events.makeAsyncIterator()
                    while true {
                        while !queue.isEmpty {
                            let action = queue.removeFirst()
                            do {
                                try await perform(action)
                            } catch {
                                outcome.error = outcome.error ?? "write failed: \(error)"
                                queue += session.failed(WireError(.internal, "write failed: \(error)"))
                            }
                        }
                        guard !session.isClosed, let event = await events.next() else { break }
                        queue = handle(event)
                    }
                    group.cancelAll()

                    func handle(_ event: Event) -> [Session.Action] {
                        let now = clock.now
                        switch event {
                        case .frame(let frame):
                            do {
                                return session.received(try WireCoding.decode(PeerMessage.self, from: frame), now: now)
                            } catch {
                                return session.failed(error)
                            }
                        case .inboundEnded(let error as FrameError):
                            return session.failed(WireError(error.code, error.description))
                        case .inboundEnded where Task.isCancelled:
                            return session.failed(WireError(.shuttingDown, "peerd is shutting down"))
                        case .inboundEnded(let error):
                            outcome.error = error.map { "connection failed: \($0)" } ?? "connection closed by peer"
                            return session.failed(WireError(.internal, outcome.error!))
                        case .advanced(let vector):
                            return session.localAdvanced(to: vector, now: now)
                        case .delivered(.success, _):
                            return []
                        case .delivered(.failure(let failure), _):
                            return session.failed(Self.wireError(for: failure))
                        case .tick:
                            return session.tick(now: now)
                        case .closeRequested(let error):
                            return session.failed(error)
                        }
                    }

                    func perform(_ action: Session.Action) async throws {
                        switch action {
                        case .send(let message):
                            try await outbound.write(WireCoding.encodeBuffer(message))
                        case .sendOperations(let ranges):
                            let sent = try await sendOperations(ranges, to: outbound)
                            await directory.touched(connectionID, now: Wallclock.millis(), sent: sent)
                        case .established(let hello):
                            logger[metadataKey: "peer"] = "\(hello.peer.short)"
                            outcome.peer = hello.peer
                            if await directory.established(connectionID, hello: hello, now: Wallclock.millis()) {
                                establishedAt = clock.now
                                logger.info("peer connected", metadata: ["name": "\(hello.name)", "role": "\(role)"])
                            } else {
                                outcome.error = "already connected to this peer"
                                sink.yield(
                                    .closeRequested(WireError(.duplicateSession, "already connected to this peer"))
                                )
                            }
                        case .deliver(let operations):
                            await directory.touched(connectionID, now: Wallclock.millis(), received: operations.count)
                            let count = operations.count
                            await replica.enqueue(operations) { result in sink.yield(.delivered(result, count: count)) }
                        case .close(let error):
                            if let error {
                                outcome.code = outcome.code ?? error.code
                                if error.code != .duplicateSession || outcome.error == nil {
                                    outcome.error = error.description
                                }
                                logger.log(
                                    level: error.code == .duplicateSession ? .debug : .notice,
                                    "closing peer session",
                                    metadata: ["code": "\(error.code.rawValue)", "reason": "\(error.message)"]
                                )
                                try? await outbound.write(WireCoding.encodeBuffer(PeerMessage.error(error)))
                            }
                        case .peerReported(let error):
                            outcome.error = "peer said: \(error)"
                            outcome.code = error.code
                            logger.log(
                                level: error.code == .duplicateSession ? .debug : .notice,
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
        await directory.closed(connectionID)
        if let establishedAt {
            outcome.establishedFor = establishedAt.duration(to: clock.now)
            logger.info("peer disconnected", metadata: ["reason": "\(outcome.error ?? "closed")"])
        }
        return outcome
    }

    /// Sends the operations in `ranges` in `ops` frames packed by size, fetching them from the
    /// replica a slice at a time; returns how many were sent.
    private func sendOperations(
        _ ranges: [Session.SendRange],
        to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    ) async throws -> Int {
        var builder = OpsFrameBuilder()
        var sent = 0
        for range in ranges {
            var next = range.seqs.lowerBound
            while next <= range.seqs.upperBound {
                let last = min(range.seqs.upperBound, next + UInt64(Self.opsPerFetch - 1))
                let operations = await replica.operations([(range.origin, next...last)])
                guard !operations.isEmpty else { break }
                for operation in operations {
                    if let body = builder.append(operation) { try await outbound.write(ByteBuffer(bytes: body)) }
                }
                sent += operations.count
                next = last + 1
            }
        }
        if let body = builder.finish() { try await outbound.write(ByteBuffer(bytes: body)) }
        return sent
    }

    static func wireError(for failure: ReplicaService.Failure) -> WireError {
        switch failure {
        case .rejected(.invalid(let id, let reason)): WireError(.invalidOperation, "operation \(id): \(reason)")
        case .rejected(.gap(let id, let expected)):
            WireError(.invalidOperation, "operation \(id) arrived before seq \(expected) of its origin")
        case .rejected(.forgedOwnOrigin(let id)):
            WireError(.invalidOperation, "operation \(id) is in my name but I never made it")
        case .storage(let error): WireError(.storageFailed, "\(error)")
        case .shuttingDown: WireError(.shuttingDown, "peerd is shutting down")
        case .refused(let refusal): WireError(.internal, "\(refusal)")
        }
    }
}
