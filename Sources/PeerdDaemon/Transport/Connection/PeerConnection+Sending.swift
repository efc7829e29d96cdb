import Logging
import NIOCore
import PeerdLoops
import PeerdModel
import PeerdSync
import PeerdWire

/// Carrying out the session's actions: messages, catch-up and live pushes, deliveries to the replica.
extension PeerConnection.Driver {
    /// How many operations one read from the replica fetches while catching a peer up: enough to
    /// make the actor hops negligible, few enough that the copy stays small (about 200 KB).
    static let opsPerFetch = 2_000

    mutating func perform(_ actions: [PeerConnection.Session.Action]) async {
        for action in actions { await perform(action) }
    }

    private mutating func perform(_ action: PeerConnection.Session.Action) async {
        switch action {
        case .send(let message): await write(WireCoding.encode(message), traced: true)
        case .sendMembers: await write(WireCoding.encode(.members(await connection.trust.members())), traced: true)
        case .sendOperations(let ranges): await push(ranges, from: connection.replica)
        case .established(let hello): await established(hello)
        case .introduced(let members):
            if let remote = machine.remote?.peer { await connection.trust.introduced(members, by: remote) }
        case .deliver(let operations): await deliver(operations, to: connection.replica)
        case .sendListOperations(let list, let ranges):
            if let service = lists[list]?.service { await push(ranges, from: service, list: list) }
        case .deliverList(let list, let operations):
            if let service = lists[list]?.service { await deliver(operations, to: service, list: list) }
        case .listOffered(let list): await offered(list)
        case .listEnded(let list, let error): ended(list, error)
        case .close(let error?):
            log("closing peer session", error)
            await sendFinal(WireCoding.encode(PeerMessage.error(error)))
        case .close(nil): break
        case .peerReported(let error):
            log("peer closed the session", error)
            // The peer learned that this daemon's key was removed from the group.
            if error.code == .removed { await connection.toldRemoved(error.message) }
        case .queried(let query):
            guard let asker = machine.remote?.peer else { return }
            let mailbox = connection.mailbox
            await connection.catalog.take(query, from: asker) { mailbox.post(.catalog(.answer($0))) }
        case .answered(let answer): await connection.catalog.asker.answered(answer, on: connectionID)
        }
    }

    private mutating func established(_ hello: PeerMessage.Hello) async {
        logger[metadataKey: "peer"] = "\(hello.peer.short)"
        await connection.trust.named(hello.peer, hello.name)
        let refusal = await connection.directory.established(connectionID, hello: hello, now: Wallclock.millis())
        if refusal == nil {
            logger.info("peer connected", metadata: ["name": "\(hello.name)", "role": "\(connection.role)"])
        }
        await perform(machine.established(refusal: refusal, now: clock.now))
        if refusal == nil { await shareLists() }
    }

    /// Sends the operations in `ranges` of `replica` (of `list`, when it is a list's), and counts them.
    private mutating func push(
        _ ranges: [PeerConnection.Session.SendRange],
        from replica: ReplicaService,
        list: ListID? = nil
    ) async {
        do {
            let sent = try await sendOperations(ranges, from: replica, list: list)
            await connection.directory.touched(connectionID, now: Wallclock.millis(), sent: sent)
        } catch {
            await perform(machine.writeFailed("\(error)"))
        }
    }

    /// Hands the peer's operations to `replica` (of `list`, when it is a list's); its answer comes
    /// back as an event.
    private func deliver(_ operations: [Operation], to replica: ReplicaService, list: ListID? = nil) async {
        await connection.directory.touched(connectionID, now: Wallclock.millis(), received: operations.count)
        let mailbox = connection.mailbox
        await replica.enqueue(operations) { result in
            let result = result.mapError(\.wireError)
            mailbox.post(list.map { .listDelivered($0, result) } ?? .delivered(result))
        }
    }

    /// Ordinary closes (a peer stopping, a duplicate) are not logged as problems.
    private func log(_ message: Logger.Message, _ error: WireError) {
        let level: Logger.Level =
            switch error.code {
            case .duplicateSession: .debug
            case .shuttingDown: .info
            default: .notice
            }
        logger.log(level: level, message, metadata: ["code": "\(error.code.rawValue)", "reason": "\(error.message)"])
    }

    /// The last frame of a session: a peer that stopped reading (its buffer full, our writer
    /// suspended) gets `finalWriteLimit`, not a session held open. While the channel is writable
    /// the write can't be held up by the peer, only by a busy machine, so it gets
    /// `busyWriteLimit`: on a loaded 2-core machine a 1 s race once lost the `error` frame.
    private func sendFinal(_ body: [UInt8]) async {
        connection.trace?.record(sent: true, body)
        let (outbound, frame) = (self.outbound, ByteBuffer(bytes: body))
        let writable = connection.connection.channel.isWritable
        let limit = writable ? PeerConnection.busyWriteLimit : PeerConnection.finalWriteLimit
        await withTaskGroup { group in
            group.addTask { try? await outbound.write(frame) }
            group.addTask { try? await LoopClock.shared.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Sends the operations in `ranges` in `ops` frames packed by size (in `list` frames, for a
    /// list's), fetching them from `replica` a slice at a time (those committed lately come encoded
    /// already); returns how many.
    private func sendOperations(
        _ ranges: [PeerConnection.Session.SendRange],
        from replica: ReplicaService,
        list: ListID?
    ) async throws -> Int {
        var builder = OpsFrameBuilder(list: list)
        var sent = 0
        for range in ranges {
            var next = range.seqs.lowerBound
            while next <= range.seqs.upperBound {
                let last = min(range.seqs.upperBound, next + UInt64(Self.opsPerFetch - 1))
                let operations = await replica.outgoing([(range.origin, next...last)])
                guard !operations.isEmpty else { break }
                for operation in operations {
                    let closed =
                        switch operation {
                        case .encoded(let encoded): builder.append(encoded)
                        case .operation(let operation): builder.append(operation)
                        }
                    if let body = closed { try await send(body) }
                }
                sent += operations.count
                next = last + 1
            }
        }
        if let body = builder.finish() { try await send(body) }
        return sent
    }

    private func send(_ body: [UInt8]) async throws {
        connection.trace?.record(sent: true, body)
        try await outbound.write(ByteBuffer(bytes: body))
    }
}
