package import Logging
package import PeerdCodec
package import PeerdModel
package import PeerdSecurity
package import PeerdStore
import ServiceLifecycle

/// Owns the replica and its durable store. Every change to the list, local or from a peer, passes
/// through one commit pipeline here: staged, written and fsynced in one batch with whatever else is
/// waiting (group commit), and only then applied, published to sessions and acknowledged.
///
/// Local operations are drafted by the replica, signed with this peer's identity key and staged, in
/// that order, in one place; operations from peers must prove their origin (`OperationVerifier`)
/// before they are staged. Operations the replica replayed from the log at start are not checked
/// again: the log is this peer's own disk, and only checked or self-made operations were written to it.
package actor ReplicaService: Service {
    package enum Failure: Error, Sendable {
        case refused(Replica.LocalRefusal)
        case rejected(Replica.Rejection)
        case storage(StoreError)
        case shuttingDown
    }

    /// What a local request did, once it is durable.
    package enum Submitted: Hashable, Sendable {
        /// The add was made; the movie's row as the list shows it now.
        case added(Operation, row: WatchListRow)
        /// The movie was on the list with an add of ours already: nothing was made.
        case alreadyListed(WatchListRow)
        case removed(Operation)
        case described(Operation)
        /// The group's settings were set.
        case settingsSet(Operation)
        /// A mark or a watch was made.
        case marked(Operation)
        /// A step of a pick was made.
        case picked(Operation)
        /// This member's mark said so already: nothing was made.
        case alreadyMarked(MovieID)
        /// A change of the group's members was made.
        case membersChanged(Operation)
        /// A list's name or ceiling was set (proto/PEER.md, "Lists").
        case listDefined(Operation)
        /// A report of where a wanted movie streams now was made (proto/PEER.md, "News").
        case reported(Operation)
    }

    /// An operation on its way into an `ops` frame: encoded at its commit, or to be encoded.
    package enum Outgoing: Sendable {
        case encoded(EncodedOperation)
        case operation(Operation)
    }

    /// What a whole request made, once durable: each of its parts' outcomes, in order, and the
    /// replica just after its commit, for the answer (``ReplicaService/write(_:at:)``).
    package struct Written: Sendable {
        package var made: [Submitted]
        package var after: Replica
    }

    enum Work {
        case local([Replica.LocalRequest], at: Int64, by: Replica.Author?, CheckedContinuation<Written, any Error>)
        case remote([Operation], completion: @Sendable (Result<Set<PeerID>, Failure>) -> Void)
    }

    var replica: Replica
    nonisolated let identity: PeerIdentity
    /// The keys of the profiles that live on this machine, by their peer ids: they sign what a
    /// request acting for a profile makes (``ActingMember``).
    var signers: [PeerID: PeerIdentity] = [:]
    /// Origins' keys and chain ends, for checking operations from peers and sealing our own.
    var verifier: OperationVerifier
    let store: any OperationStore
    let logger: Logger
    var pending: [Work] = []
    /// Operations from peers in `pending`, and the connections waiting for room for theirs.
    var queuedFromPeers = 0
    var waitingForRoom: [CheckedContinuation<Void, Never>] = []
    var recent = RecentOperations()
    /// The group's other lists' services (``accompany(_:)``).
    var companions: [ReplicaService] = []
    /// A list's operations from keys not on it yet (``holdAside(_:)``).
    var waiting: [OperationID: Operation] = [:]
    /// Set when a peer told this daemon its key was removed from the group, before (or without) the
    /// removal reaching its log: local writes are refused with these words from then on.
    var toldRemoved: String?
    private var accepting = true
    /// How many operations the replica held when its snapshot was last kept (``keepSnapshotIfDue()``).
    var snapshotAt: Int
    /// The snapshot being kept, if one is.
    var keeping: Task<Void, Never>?
    private let wakeups = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    private let advances = Broadcast<Advance>(bufferingPolicy: .bufferingNewest(1))
    /// Every change, to each reader: a `follow` must not miss one.
    let changeFeed = Broadcast<[WatchListChange]>()
    let ticks = Broadcast<Void>(bufferingPolicy: .bufferingNewest(1))
    /// The picks each commit changed; a slow reader keeps the newest batches (it asks how each
    /// stands anyway).
    let pickFeed = Broadcast<[OperationID]>(bufferingPolicy: .bufferingNewest(64))
    /// The group's membership after each commit that changed it; a slow reader needs only the newest.
    let membershipFeed = Broadcast<Membership>(bufferingPolicy: .bufferingNewest(1))

    /// The list this service holds the operations of: nil for the group's own (proto/PEER.md, "Lists").
    package nonisolated let listID: ListID?

    /// `replayed`: how many of the replica's operations were read from the log at start rather than
    /// from its snapshot (all of them without one), which makes a new snapshot due sooner.
    package init(
        replica: Replica,
        identity: PeerIdentity,
        store: any OperationStore,
        replayed: Int = 0,
        logger: Logger
    ) {
        precondition(identity.peer == replica.id, "the replica's id is its identity key's fingerprint")
        self.replica = replica
        snapshotAt = replica.operationCount - replayed
        listID = replica.listID
        verifier = OperationVerifier(list: replica.listID)
        self.identity = identity
        self.store = store
        self.logger = logger
    }

    package func run() async throws {
        await keepSnapshotIfDue()
        for await _ in wakeups.stream.cancelOnGracefulShutdown() {
            await flush()
            await keepSnapshotIfDue()
        }
        // Shutting down: whatever is already queued is still made durable before the store closes.
        accepting = false
        makeRoom()
        await flush()
        await keepSnapshotIfDue(stopping: true)
        advances.finish()
        changeFeed.finish()
        ticks.finish()
        pickFeed.finish()
        membershipFeed.finish()
        logger.info("replica stopped", metadata: ["operations": "\(replica.operationCount)"])
    }

    // MARK: Reading

    /// The replica as it stands: one hop, and a desk reads what it needs from the value and builds
    /// its records outside this actor. Hold it only while answering: a commit made meanwhile copies
    /// what it changes instead of changing it in place.
    /// The list a request acts on (``ActingList``) is the one read: this group's, or another list's.
    /// Either way it comes with the marks of the other (proto/PEER.md, "Lists": "seen" is seen everywhere).
    package nonisolated var snapshot: Replica {
        get async {
            if let list = ActingList.current, list !== self {
                var replica = await list.groupSnapshot
                replica.borrow(from: await groupSnapshot)
                return replica
            }
            var replica = await groupSnapshot
            for companion in await companions { replica.borrowMarks(from: await companion.groupSnapshot) }
            return replica
        }
    }

    /// The services of the group's other lists held here, whose marks the group's list shows.
    package func accompany(_ list: ReplicaService) { companions.append(list) }

    /// This service's replica, whatever list the request acts on: what the group's membership,
    /// settings and names are read from.
    package var groupSnapshot: Replica { replica }

    /// A peer said this daemon's key was removed from the group ("removed from the group by alice
    /// at 21:04"): nothing it writes from now on would count anywhere, so nothing is written.
    package func told(removed words: String) { toldRemoved = toldRemoved ?? words }

    /// Signs from now on what requests acting for the profile `identity` is the key of make.
    package func addSigner(_ identity: PeerIdentity) { signers[identity.peer] = identity }

    /// The profiles' keys this service signs with: a list's service takes the group's.
    var signerKeys: [PeerID: PeerIdentity] { signers }

    /// Signs with `keys` too, from now on.
    func adopt(signers keys: [PeerID: PeerIdentity]) { signers.merge(keys) { current, _ in current } }

    package var id: PeerID { replica.id }
    package var name: String { replica.name }
    package var vector: VersionVector { replica.vector }
    package var movieCount: Int { replica.list.count }
    package var operationCount: Int { replica.operationCount }

    /// Listed movies that wait for a describe (``WatchListRow/awaitsDescribe(region:)``), and
    /// whether this replica added each.
    package func undescribed() -> [(movie: MovieID, addedHere: Bool)] {
        let list = replica.list
        let region = list.settings?.region
        let listed = list.rows.filter { $0.awaitsDescribe(region: region) }.map { row in
            (row.movie.id, row.addedBy.contains { $0.peer == replica.id })
        }
        // A movie someone marked is shown whether or not it is listed (a rated diary film of an
        // import), so it is described too.
        let marked = list.marks.markedMovies.filter { list.row(for: $0) == nil && list.description(of: $0) == nil }
        return listed + marked.sorted().map { ($0, list.marks.hasMark(of: replica.id, on: $0)) }
    }

    /// The operations `ranges` name, for sending: a range committed lately comes as it was encoded
    /// then, so a live push to many sessions encodes each operation once; older ones (a catch-up)
    /// come as held, for the sending session to encode.
    package func outgoing(_ ranges: [(origin: PeerID, seqs: ClosedRange<UInt64>)]) -> [Outgoing] {
        ranges.flatMap { range in
            let encoded = range.seqs.map { recent.encoded(OperationID(origin: range.origin, seq: $0)) }
            if encoded.allSatisfy({ $0 != nil }) { return encoded.map { Outgoing.encoded($0!) } }
            return replica.operations(from: range.origin, seqs: range.seqs).map(Outgoing.operation)
        }
    }

    /// Every other origin we hold operations from, with the name on its latest one.
    package func origins() -> [(peer: PeerID, name: String)] {
        replica.vector.entries.keys.sorted().compactMap { origin in
            // A profile is a member, not a machine to reach: `members` shows it, with where it lives.
            guard origin != replica.id, replica.membership.home(of: origin) == nil else { return nil }
            let last = replica.vector[origin]
            return replica.operation(from: origin, seq: last).map { (origin, $0.by) }
        }
    }

    // MARK: Writing

    /// Makes, persists and applies the operations of one whole request (an add with its marks, an
    /// import row), in one commit: all of them or, if the replica refuses one, none. Returns once
    /// they are durable, with the replica after them.
    /// The operations are the member's the request acts for (``ActingMember/current``): this
    /// machine's own, or a profile's.
    package func write(_ requests: [Replica.LocalRequest], at now: Int64) async throws -> Written {
        if let list = ActingList.current, list !== self {
            // A profile made after the list was opened signs there too.
            await list.adopt(signers: signers)
            return try await list.write(requests, at: now)
        }
        guard accepting else { throw Failure.shuttingDown }
        let author = ActingMember.current.flatMap { $0.id == replica.id ? nil : $0 }
        if let author, signers[author.id] == nil {
            throw Failure.refused(.invalid("this peerd holds no key of \(author.name); it lives on another machine"))
        }
        return try await withCheckedThrowingContinuation { continuation in
            pending.append(.local(requests, at: now, by: author, continuation))
            wakeups.continuation.yield()
        }
    }

    /// Makes, persists and applies one local operation; returns once it is durable.
    package func submit(_ request: Replica.LocalRequest, at now: Int64) async throws -> Submitted {
        try await write([request], at: now).made[0]
    }

    /// How many operations from peers may wait for the next commit. A connection with more waits
    /// until the commit under way takes them, and meanwhile reads no more frames, so TCP holds back
    /// a peer that sends faster than this one commits, not this daemon's memory: without it, a
    /// fresh peer catching up 100,000 movies queued decoded operations as fast as it read them,
    /// and its RSS ended some MB higher (bench/README.md). About four full catch-up frames.
    static let peerQueueLimit = 2_000

    /// Queues operations from a peer, in arrival order; once they are durable and applied,
    /// `completion` gets the origins whose operations among them were all held already (the relay
    /// tree prunes those), or why they were refused. Returns once they are queued: at once, or when
    /// the commit under way has made room (``peerQueueLimit``).
    package func enqueue(
        _ operations: [Operation],
        completion: @escaping @Sendable (Result<Set<PeerID>, Failure>) -> Void
    ) async {
        while accepting, queuedFromPeers >= Self.peerQueueLimit {
            await withCheckedContinuation { waitingForRoom.append($0) }
        }
        guard accepting else { return completion(.failure(.shuttingDown)) }
        pending.append(.remote(operations, completion: completion))
        queuedFromPeers += operations.count
        wakeups.continuation.yield()
    }

    /// The queue was taken (or the replica stops): the connections waiting for room try again.
    func makeRoom() {
        queuedFromPeers = 0
        let waiting = waitingForRoom
        waitingForRoom.removeAll()
        for continuation in waiting { continuation.resume() }
    }

    // MARK: Subscriptions

    /// The replica's vector advanced, by a commit of operations from `origins`.
    struct Advance: Sendable {
        var vector: VersionVector
        var origins: Set<PeerID>
    }

    /// The replica's vector now, then after each commit; only the newest is kept for a slow reader.
    /// With `interest`, only after commits it wants (the others are noted in it).
    func vectorUpdates(interest: VectorInterest? = nil) -> AsyncStream<Advance> {
        advances.subscribe(startingWith: Advance(vector: replica.vector, origins: [])) { advance in
            interest?.wants(advance.origins) ?? true
        }
    }

    /// The picks each commit changed, by their openings' ids.
    /// (Of the list the request acts on: ``ActingList``.)
    package nonisolated func pickChanges() async -> AsyncStream<[OperationID]> {
        if let list = ActingList.current, list !== self { return await list.pickFeed.subscribe() }
        return await pickFeed.subscribe()
    }

    /// The group's membership after each commit that changed it (proto/PEER.md, "Membership").
    package func membershipChanges() -> AsyncStream<Membership> { membershipFeed.subscribe() }

    /// Every list change, in order.
    /// (Of the list the request acts on: ``ActingList``.)
    package nonisolated func changes() async -> AsyncStream<[WatchListChange]> {
        if let list = ActingList.current, list !== self { return await list.changeFeed.subscribe() }
        return await changeFeed.subscribe()
    }

    /// A tick now, then after each commit that changed the list, its details or the group's
    /// settings (newest kept for a slow reader).
    /// (Of the list the request acts on: ``ActingList``.)
    package nonisolated func listTicks() async -> AsyncStream<Void> {
        if let list = ActingList.current, list !== self { return await list.ticks.subscribe(startingWith: ()) }
        return await ticks.subscribe(startingWith: ())
    }

    /// Changes are made only when someone reads them (making them costs as much as applying).
    var hasChangeSubscribers: Bool { changeFeed.hasSubscribers || ticks.hasSubscribers }

    /// After a commit of operations from `origins`; `markedOffList` when one marked a movie not on
    /// the list (the catalog describes those too).
    func publish(
        _ changes: [WatchListChange],
        origins: Set<PeerID>,
        settingsChanged: Bool = false,
        markedOffList: Bool = false
    ) {
        advances.yield(Advance(vector: replica.vector, origins: origins))
        if !changes.isEmpty { changeFeed.yield(changes) }
        if !changes.isEmpty || settingsChanged || markedOffList { ticks.yield(()) }
    }
}
