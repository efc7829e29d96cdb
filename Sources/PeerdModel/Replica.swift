/// Everything one replica knows: its operations by origin, the list they make, its clocks.
///
/// Pure: the daemon's replica service owns one, persists what `stage` returns, and only then calls
/// `commit`. Each origin's operations are held as a gap-free prefix, so `vector` describes them exactly.
package struct Replica: Sendable {
    package let id: PeerID
    package var name: String
    /// The list whose operations this replica holds: nil for the group's own (proto/PEER.md, "Lists").
    package let listID: ListID?
    package private(set) var list = WatchList()
    package private(set) var vector = VersionVector()
    package private(set) var lamport: UInt64 = 0
    /// Who is in the group, folded from the member operations held (proto/PEER.md, "Membership").
    package private(set) var membership = Membership()
    /// In one of the group's other lists: who made it, by the first list operation held that
    /// carries the list's nonce (its verifier checked that the nonce and origin make the list's id).
    package private(set) var creator: PeerID?
    /// Every operation held, by `(origin, seq)`; adds the list holds are found there.
    private(set) var log = ReplicaLog()
    /// Where the operations' proofs are read back from: the log the replica is kept in.
    package var archive: (any OperationArchive)? {
        get { log.archive }
        set { log.archive = newValue }
    }
    /// Whether operations its log holds were dropped as void (``dropVoidOperations(cause:)``): such
    /// a replica is not the fold of its log's prefix, and gives no snapshot (``parts``).
    package internal(set) var droppedVoid = false
    /// Operations made or admitted but not yet committed (waiting for fsync), in commit order.
    private(set) var staged: [Operation] = []
    /// `vector` plus `staged`: what this replica will hold once the staged operations commit.
    package private(set) var stagedVector = VersionVector()

    package init(id: PeerID, name: String, list: ListID? = nil) {
        self.id = id
        self.name = name
        listID = list
    }

    /// The replica `parts` were taken from (``parts``); nil when the parts don't fit together, and
    /// the log must be replayed. Its retired operations and proofs are read back from its
    /// ``archive``, once set.
    package init?(restoring parts: ReplicaParts) {
        self.init(id: parts.id, name: parts.name, list: parts.listID)
        guard let restoredLog = ReplicaLog(parts.log), let marks = GroupMarks(parts.marks) else { return nil }
        log = restoredLog
        for op in parts.kept {
            // One string for each origin and its name, as replaying gives (``ReplicaLog/interned(_:)``).
            let op = log.interned(op)
            _ = list.apply(op, reporting: false)
            if op.kind == .member { membership.record(op) }
        }
        list.restore(tombstones: parts.tombstones, marks: marks, names: parts.names)
        vector = VersionVector(parts.vector)
        guard log.fits(list), vector.entries.allSatisfy({ log.count(of: $0.key) == $0.value }),
            log.origins.allSatisfy({ vector[$0] > 0 })
        else { return nil }
        stagedVector = vector
        lamport = parts.lamport
        creator = parts.creator
    }

    package enum Rejection: Error, Hashable, Sendable {
        /// The operation is malformed; the reason says how.
        case invalid(OperationID, reason: String)
        /// `(origin, seq)` arrived before `(origin, seq - 1)`.
        case gap(OperationID, expected: UInt64)
        /// Someone else sent an operation in our name that we never made.
        case forgedOwnOrigin(OperationID)
    }

    package enum LocalRequest: Hashable, Sendable {
        case add(Movie)
        case remove(MovieID)
        /// The movie's details, fetched here (proto/PEER.md, "Describing a movie").
        case describe(MovieID, MovieDetails)
        /// The group's region and services (proto/PEER.md, "Group settings").
        case settings(GroupSettings)
        /// One of this member's marks on a movie (proto/PEER.md, "Marks").
        case mark(Movie, Mark)
        /// A watch of a movie by the members present.
        case watch(Movie, Watch)
        /// A step of a pick of tonight's movie: an opening (its deck is shuffled by the opening's
        /// own id, ``PickDeck``), a vote on `Movie`, a ranking or a close (proto/PEER.md, "Picks").
        case pick(Movie, Pick)
        /// A change of the group's members: an admission, a removal, a record of the group secret.
        case member(MemberStep)
        /// One of the group's other lists named, its ceiling set, or (with its nonce) made
        /// (proto/PEER.md, "Lists").
        case defineList(ListDefinition)
        /// A change of where `MovieID` streams, found by this token holder's check (proto/PEER.md, "News").
        case news(MovieID, ProviderNews)
        /// The relays the whole group meets through (proto/PEER.md, "Relays and reach").
        case relays(GroupRelays)
        /// How to reach this machine: its addresses and its device id on relays.
        case reach(PeerReach)
    }

    package enum LocalRefusal: Error, Hashable, Sendable {
        case notListed(MovieID)
        case invalid(String)
        /// A pick step its pick's rules refuse.
        case pick(PickRefusal)
        /// This replica's own key was removed from the group: nothing it signs counts any more. The
        /// words say by whom and when: "removed from the group by alice at 21:04".
        case removedFromGroup(String)
    }

    /// What a local request makes: an operation, or nothing because it is done already.
    package enum Draft: Hashable, Sendable {
        /// The next operation of this replica, not yet sealed or staged.
        case operation(Operation)
        /// The movie is on the list with an add of this replica's already.
        case alreadyListed(WatchListRow)
        /// This member's mark of that kind on the movie says so already.
        case alreadyMarked(MovieID)
    }

    package var operationCount: Int { Int(vector.operationCount) }

    /// Operation `(origin, seq)` without its proof, when held (and, retired, read back from the
    /// log): what it says, not for sending (``operations(from:seqs:)`` reads its proof as well).
    package func operation(from origin: PeerID, seq: UInt64) -> Operation? {
        guard seq >= 1, log.count(of: origin) >= seq else { return nil }
        return log.operation(from: origin, seq: seq, in: list)
    }

    /// Operations `(origin, seqs)`, each with its proof; the caller asks only for ranges `vector` covers.
    package func operations(from origin: PeerID, seqs: ClosedRange<UInt64>) -> [Operation] {
        log.operations(from: origin, seqs: seqs, in: list)
    }

    /// Who makes a local operation: this machine's own member, or a profile that lives on it
    /// (proto/PEER.md, "Profiles"), whose key the daemon holds and signs with.
    package struct Author: Hashable, Sendable {
        package var id: PeerID
        package var name: String

        package init(id: PeerID, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// This machine's own member.
    package var machine: Author { Author(id: id, name: name) }

    /// The operation a local request makes, with its seq and lamport: the one place they are worked
    /// out. It is sealed (the daemon signs it) and handed back to ``stage(local:)``, then committed
    /// once durable, or discarded with ``discardStaged()`` if persisting failed. `author` makes it:
    /// this machine's member unless a profile of it is named.
    package func draft(_ request: LocalRequest, at now: Int64, by author: Author? = nil) throws(LocalRefusal) -> Draft {
        let author = author ?? machine
        let id = author.id
        if let refusal = listRefusal(request, by: author) { throw .invalid(refusal) }
        if let removal = membership.removal(of: id) { throw .removedFromGroup(removal.removedWords) }
        let next = Operation(
            id: OperationID(origin: id, seq: stagedVector[id] + 1),
            lamport: lamport + 1,
            at: now,
            by: author.name,
            kind: .add,
            movie: Operation.groupMovie
        )
        switch request {
        case .add(let movie):
            if let reason = movie.invalidReason { throw .invalid(reason) }
            if let row = list.row(for: movie.id), row.addedBy.contains(where: { $0.peer == id }),
                !staged.contains(where: { $0.movie.id == movie.id })
            {
                return .alreadyListed(row)
            }
            return .operation(next.with(.add, movie))
        case .describe(let movieID, let details):
            if let reason = details.invalidReason { throw .invalid(reason) }
            return .operation(next.with(.describe, Movie(id: movieID), payload: .details(details)))
        case .settings(let settings):
            if let reason = settings.invalidReason { throw .invalid(reason) }
            return .operation(next.with(.settings, Operation.groupMovie, payload: .settings(settings)))
        case .mark(let movie, let mark):
            if let reason = movie.invalidReason ?? mark.invalidReason { throw .invalid(reason) }
            let current = list.marks.mark(mark.kind, of: id, on: movie.id)
            let staging = staged.contains { $0.kind == .mark && $0.movie.id == movie.id && $0.mark?.kind == mark.kind }
            var already = current == mark || (current?.set ?? false) == false && !mark.set
            if mark.kind == .seen, !mark.set {
                // A rating is a viewing: "not seen" says something when only a rating made it seen,
                // and nothing once that rating's clear is staged before it, unless a seen mark stands.
                let ratingCleared = staged.contains {
                    $0.kind == .mark && $0.movie.id == movie.id && $0.mark?.kind == .rating && $0.mark?.set == false
                }
                already =
                    ratingCleared ? !(current?.set ?? false) : !list.marks.anyone(in: [id], has: .seen, on: movie.id)
            }
            if !staging, already { return .alreadyMarked(movie.id) }
            return .operation(next.with(.mark, list.row(for: movie.id)?.movie ?? movie, payload: .mark(mark)))
        case .pick(let movie, let step):
            return .operation(next.with(.pick, movie, payload: .pick(try pickStep(step, on: movie, id: next.id))))
        case .news(let movie, let news):
            if let reason = news.invalidReason { throw .invalid(reason) }
            return .operation(next.with(.news, list.row(for: movie)?.movie ?? Movie(id: movie), payload: .news(news)))
        case .defineList(let definition):
            if let reason = definition.invalidReason { throw .invalid(reason) }
            return .operation(next.with(.list, Operation.groupMovie, payload: .list(definition)))
        case .relays(let relays):
            if let reason = relays.invalidReason { throw .invalid(reason) }
            return .operation(next.with(.relays, Operation.groupMovie, payload: .relays(relays)))
        case .reach(let reach):
            if let reason = reach.invalidReason { throw .invalid(reason) }
            return .operation(next.with(.reach, Operation.groupMovie, payload: .reach(reach)))
        case .member(let step):
            if let reason = step.invalidReason(origin: id) ?? memberRefusal(step, by: id) { throw .invalid(reason) }
            return .operation(next.with(.member, Operation.groupMovie, payload: .member(step)))
        case .watch(let movie, let watch):
            if let reason = movie.invalidReason ?? watch.invalidReason { throw .invalid(reason) }
            return .operation(next.with(.watch, list.row(for: movie.id)?.movie ?? movie, payload: .watch(watch)))
        case .remove(let movieID):
            var names = Set(list.survivingAdds(of: movieID))
            for op in staged where op.movie.id == movieID {
                if op.kind == .add { names.insert(op.id) } else { names.subtract(op.removes) }
            }
            guard !names.isEmpty else { throw .notListed(movieID) }
            var removal = next.with(.remove, list.row(for: movieID)?.movie ?? Movie(id: movieID))
            removal.removes = names.sorted()
            return .operation(removal)
        }
    }

    /// Stages a local operation ``draft(_:at:)`` made (sealed by now), to be written in the next batch.
    package mutating func stage(local operation: Operation) {
        let origin = operation.id.origin
        precondition(operation.id.seq == stagedVector[origin] + 1, "stage the operation draft just made")
        lamport = max(lamport, operation.lamport)
        staged.append(operation)
        stagedVector[origin] = operation.id.seq
    }

    /// Stages operations `admit` returned, so they are written in the same batch as local ones.
    package mutating func stage(admitted operations: [Operation]) {
        for op in operations where op.id.seq == stagedVector[op.id.origin] + 1 {
            staged.append(op)
            stagedVector[op.id.origin] = op.id.seq
        }
    }

    /// Forgets staged operations that could not be persisted; local seqs will be used again.
    package mutating func discardStaged() {
        staged.removeAll()
        stagedVector = vector
    }

    /// Checks operations from a peer and returns those that are new, in order, counting staged ones
    /// as held. Duplicates are dropped silently; a malformed, out-of-order or forged one stops the check,
    /// as does one whose lamport is not above its origin's previous operation's (proto/PEER.md).
    package func admit(_ incoming: [Operation]) throws(Rejection) -> [Operation] {
        try admission(incoming).fresh
    }

    /// ``admit(_:)``, with the operations it holds aside: in one of the group's other lists, those
    /// of keys not on the list yet (proto/PEER.md, "Lists"), each origin's from its first such one
    /// on, to be admitted again once an admission of their origin is held.
    package func admission(_ incoming: [Operation]) throws(Rejection) -> (fresh: [Operation], waiting: [Operation]) {
        var next: [PeerID: (seq: UInt64, lamport: UInt64)] = [:]
        var fresh: [Operation] = []
        var waiting: [Operation] = []
        var aside: Set<PeerID> = []
        // The membership as it stands after the member operations earlier in this message.
        var members = membership
        var creator = self.creator
        for op in incoming {
            if let reason = op.invalidReason { throw .invalid(op.id, reason: reason) }
            // A removed key's operations beyond what its remover had seen count nowhere: dropped,
            // whoever relays them (an honest relay may not know the removal yet).
            if !members.counts(op.id), !members.extends(op) { continue }
            if listID != nil {
                if creator == nil, op.listDefinition?.nonce != nil { creator = op.id.origin }
                let on = op.id.origin == creator || members.admitted.contains(op.id.origin)
                if !on || aside.contains(op.id.origin) {
                    aside.insert(op.id.origin)
                    waiting.append(op)
                    continue
                }
            }
            if op.id.origin == id {
                // Only what we committed can have reached a peer; anything else in our name is forged.
                guard op.id.seq <= vector[id] else { throw .forgedOwnOrigin(op.id) }
                continue
            }
            let have = next[op.id.origin]?.seq ?? stagedVector[op.id.origin]
            if op.id.seq <= have { continue }
            guard op.id.seq == have + 1 else { throw .gap(op.id, expected: have + 1) }
            let previous = next[op.id.origin]?.lamport ?? lamport(of: OperationID(origin: op.id.origin, seq: have))
            guard op.lamport > previous else {
                throw .invalid(
                    op.id,
                    reason: "lamport \(op.lamport) is not above \(previous), its origin's previous one"
                )
            }
            next[op.id.origin] = (op.id.seq, op.lamport)
            fresh.append(op)
            if op.kind == .member { members.record(op) }
        }
        return (fresh, waiting)
    }

    /// The lamport of a held or staged operation; 0 for seq 0 (nothing before an origin's first).
    private func lamport(of id: OperationID) -> UInt64 {
        guard id.seq > 0 else { return 0 }
        if let op = staged.last(where: { $0.id == id }) { return op.lamport }
        guard log.count(of: id.origin) >= id.seq else { return 0 }
        return log.gist(from: id.origin, seq: id.seq, in: list).lamport
    }

    /// Applies durable operations (staged local ones or admitted remote ones) in order; `offsets`,
    /// when given, says where the log holds each one (its proof is then read from there, not held).
    /// The changes to the list are made only when `reportingChanges` (nobody may be listening).
    package mutating func commit(
        _ operations: [Operation],
        at offsets: [UInt64]? = nil,
        reportingChanges: Bool = true
    ) -> [WatchListChange] {
        precondition(offsets == nil || offsets!.count == operations.count, "one offset per operation")
        var changes: [WatchListChange] = []
        for (index, op) in operations.enumerated() where !vector.contains(op.id) {
            precondition(op.id.seq == vector[op.id.origin] + 1, "commit out of order: \(op.id)")
            let change = append(op, at: offsets?[index], reportingChange: reportingChanges)
            if let change { changes.append(change) }
        }
        // One pass at the end: removing each committed operation from `staged` as it commits was a
        // search plus a shift of the whole array per operation, O(n²) for a catch-up batch (23 % of
        // a fresh peer's CPU time catching up 100,000 operations, profiled with perf). Whatever the
        // vector now holds is committed; staged operations are never ahead of their origin's prefix.
        if !staged.isEmpty { staged.removeAll { vector.contains($0.id) } }
        stagedVector = staged.isEmpty ? vector : stagedVector.merged(with: vector)
        return changes
    }

    /// Rebuilds state from the durable log at start. Operations that don't continue their origin's
    /// prefix are skipped and counted (the log never holds them unless it was edited by hand).
    package mutating func replay(_ operations: [Operation]) -> (applied: Int, skipped: Int) {
        var applied = 0
        for op in operations where replay(op) { applied += 1 }
        return (applied, operations.count - applied)
    }

    /// Replays one operation read from the durable log, as the log is read (its record at `offset`,
    /// where its proof stays); false if it was skipped because it does not continue its origin's
    /// prefix or is malformed.
    package mutating func replay(_ operation: Operation, at offset: UInt64? = nil) -> Bool {
        let origin = operation.id.origin
        let invalid = operation.invalidReason
        guard operation.id.seq == vector[origin] + 1, invalid == nil || invalid == Operation.emptyRemovalReason
        else { return false }
        _ = append(operation, at: offset, reportingChange: false)
        if stagedVector[origin] < operation.id.seq { stagedVector[origin] = operation.id.seq }
        return true
    }

    /// One of the group's other lists: this list as people see it, with what it takes from the group's (``WatchList/borrow(from:)``).
    package mutating func borrow(from group: Replica) { list.borrow(from: group.list) }

    /// The group's list as people see it, with the marks made in `other`, one of its other lists.
    package mutating func borrowMarks(from other: Replica) { list.borrowMarks(from: other.list) }

    /// Keeps the Lamport clock at least at `value`: a replica folded again never goes back in time.
    mutating func raiseLamport(to value: UInt64) { lamport = max(lamport, value) }

    /// Holds `op`, the next of its origin, and applies it to the list.
    private mutating func append(_ op: Operation, at offset: UInt64?, reportingChange: Bool) -> WatchListChange? {
        let op = log.withoutProof(log.interned(op), at: offset)
        var retired: [Operation] = []
        let change = list.apply(op, reporting: reportingChange) { retired.append($0) }
        for add in retired { log.retire(add) }
        log.append(op, listed: op.kind == .add && list.add(op.id, of: op.movie.id) != nil)
        if op.kind == .member { membership.record(op) }
        if creator == nil, listID != nil, op.listDefinition?.nonce != nil { creator = op.id.origin }
        vector[op.id.origin] = op.id.seq
        lamport = max(lamport, op.lamport)
        return change
    }
}

extension Operation {
    /// This operation as one of `kind` about `movie`, carrying `payload`: a draft's last touches.
    fileprivate func with(_ kind: Kind, _ movie: Movie, payload: Payload? = nil) -> Operation {
        var made = self
        made.kind = kind
        made.movie = movie
        made.payload = payload
        return made
    }
}
