import NIOCore
import PeerdModel
import PeerdSecurity
import PeerdSync
import PeerdTestKit
import PeerdWire

/// Two connection state machines wired to each other, with no socket: each end's frames go to the
/// other in order, and each end carries out its actions as the daemon's driver would, with a replica
/// that is just the operations it holds per list. For the lists' sessions (proto/PEER.md, "How a list
/// travels").
struct ConnectionLink {
    /// One end: its machine, the lists it holds, and what it saw.
    struct End {
        var machine: Machine
        let peer: PeerID
        /// Whether its hello says `lists`.
        var carriesLists = true
        /// Whether it takes a list the peer opens (else: refused, rate-limited).
        var takesLists = true
        /// The operations it holds, per list.
        var held: [ListID: [Operation]] = [:]
        /// Every message it sent.
        var sent: [PeerMessage] = []
        var offered: [ListID] = []
        var ended: [ListID: WireError?] = [:]
        var closed: [WireError?] = []

        func vector(_ list: ListID) -> VersionVector {
            var vector = VersionVector()
            for op in held[list] ?? [] where op.id.seq > vector[op.id.origin] { vector[op.id.origin] = op.id.seq }
            return vector
        }

        func hello(_ vector: VersionVector = VersionVector()) -> PeerMessage.Hello {
            PeerMessage.Hello(
                peer: peer,
                name: peer.short,
                port: 7601,
                vector: vector,
                tree: true,
                lists: carriesLists ? true : nil
            )
        }
    }

    var ends: [End]
    /// The frames on their way to each end.
    private var inbox: [[ByteBuffer]] = [[], []]
    var now = start

    /// Two ends through admission to an established session, `olderRemote` without `lists`.
    init(olderRemote: Bool = false, rateLimit: RateLimit<ContinuousClock.Instant>.Configuration = .init()) {
        let keys = ConnectionEnds()
        var generator = SplitMix64(seed: 11)
        var local = Machine(role: .dialer, expected: nil, rateLimit: rateLimit, using: &generator)
        var remote = Machine(role: .acceptor, expected: nil, rateLimit: rateLimit, using: &generator)
        local.identified(keys.endpoints, policy: ConnectionEnds.group)
        remote.identified(
            .init(
                local: keys.remote.peer,
                localCertificate: keys.remote.certificateDER,
                remote: keys.local.peer,
                remoteCertificate: keys.local.certificateDER
            ),
            policy: ConnectionEnds.group
        )
        ends = [End(machine: local, peer: keys.local.peer), End(machine: remote, peer: keys.remote.peer)]
        ends[1].carriesLists = !olderRemote
        inbox = [[ByteBuffer(bytes: remote.offer)], [ByteBuffer(bytes: local.offer)]]
        pump()
    }

    /// Delivers frames until neither end has any on its way.
    mutating func pump() {
        while let side = inbox.indices.first(where: { !inbox[$0].isEmpty }) {
            let frame = inbox[side].removeFirst()
            handle(side, ends[side].machine.received(frame, now: now))
        }
    }

    /// Sends `body` as end `side` would, unread by the machine: a peer that breaks the rules.
    mutating func inject(_ body: [UInt8], from side: Int) {
        inbox[1 - side].append(ByteBuffer(bytes: body))
    }

    /// End `side` opens `list` with the vector it holds.
    mutating func open(_ list: ListID, at side: Int) {
        let hello = ends[side].hello(ends[side].vector(list))
        perform(side, ends[side].machine.openList(list, localHello: hello, now: now))
        pump()
    }

    /// End `side` makes `operations` in `list`: they commit, and its sessions hear of it.
    mutating func commit(_ operations: [Operation], in list: ListID, at side: Int) {
        ends[side].held[list, default: []] += operations
        perform(side, ends[side].machine.listAdvanced(list, to: ends[side].vector(list), now: now))
        pump()
    }

    mutating func perform(_ side: Int, _ action: Machine.FrameAction) {
        handle(side, action)
        pump()
    }

    private mutating func handle(_ side: Int, _ action: Machine.FrameAction) {
        switch action {
        case .sendRecord(let record): inbox[1 - side].append(ByteBuffer(bytes: record))
        case .confirmAdmission:
            let hello = ends[side].hello()
            if case .startSession(let actions) = ends[side].machine.admission(
                confirmed: true,
                localHello: hello,
                now: now
            ) {
                perform(side, actions)
            }
        case .session(let actions): perform(side, actions)
        case .refuse, .refusedByPeer: break
        }
    }

    mutating func perform(_ side: Int, _ actions: [Machine.Session.Action]) {
        for action in actions { perform(side, action) }
    }

    private mutating func perform(_ side: Int, _ action: Machine.Session.Action) {
        switch action {
        case .send(let message): send(WireCoding.encode(message), from: side)
        case .sendListOperations(let list, let ranges):
            var builder = OpsFrameBuilder(budget: 512, list: list)
            for op in ranges.flatMap({ range in ends[side].held[list, default: []].filter { range.contains($0.id) } }) {
                if let body = builder.append(op) { send(body, from: side) }
            }
            if let body = builder.finish() { send(body, from: side) }
        case .deliverList(let list, let operations): deliver(operations, in: list, at: side)
        case .listOffered(let list):
            ends[side].offered.append(list)
            let answer =
                ends[side].takesLists
                ? ends[side].machine.openList(list, localHello: ends[side].hello(ends[side].vector(list)), now: now)
                : ends[side].machine.closeList(
                    list,
                    WireError(.rateLimited, "this machine holds as many lists as it takes")
                )
            perform(side, answer)
        case .listEnded(let list, let error): ends[side].ended[list] = error
        case .established: perform(side, ends[side].machine.established(refusal: nil, now: now))
        case .close(let error): ends[side].closed.append(error)
        case .sendOperations, .deliver, .peerReported, .introduced, .sendMembers, .queried, .answered: break
        }
    }

    private mutating func send(_ body: [UInt8], from side: Int) {
        if let message = try? WireCoding.decode(PeerMessage.self, from: body) { ends[side].sent.append(message) }
        inbox[1 - side].append(ByteBuffer(bytes: body))
    }

    /// The replica's part: keeps what is new, then the session hears of the commit.
    private mutating func deliver(_ operations: [Operation], in list: ListID, at side: Int) {
        let before = ends[side].vector(list)
        let new = operations.filter { $0.id.seq > before[$0.id.origin] }
        let heldAlready = Set(operations.map(\.id.origin)).subtracting(new.map(\.id.origin))
        ends[side].held[list, default: []] += new
        perform(side, ends[side].machine.listDelivered(list, .success(heldAlready), now: now))
        perform(side, ends[side].machine.listAdvanced(list, to: ends[side].vector(list), now: now))
    }
}

extension PeerSession.SendRange {
    func contains(_ id: OperationID) -> Bool { id.origin == origin && seqs.contains(id.seq) }
}
