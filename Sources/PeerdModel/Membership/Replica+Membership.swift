/// The group's membership as this replica holds it, and what a removal does to what it holds.
extension Replica {
    /// Why `author` can't make `step` now, or nil: a removal of a key removed already, or a profile
    /// admitting anyone (only a machine admits: it holds the keys it lets in or meets them in TLS).
    /// (Which keys are members to remove is the daemon's to say: its trust list knows keys the log
    /// may not yet.)
    func memberRefusal(_ step: MemberStep, by author: PeerID) -> String? {
        if step.action == .admit, membership.home(of: author) != nil { return "a profile admits nobody" }
        guard step.action == .remove, let peer = step.peer, let removal = membership.removal(of: peer) else {
            return nil
        }
        return "\(peer.short) was \(removal.removedWords) already"
    }

    /// A removal of `peer` as this replica would make it now: it names how far this replica had seen
    /// `peer`'s chain, and nothing `peer` signs beyond that will count.
    package func removal(of peer: PeerID) -> MemberStep { .remove(peer, seen: stagedVector[peer]) }

    /// Every key of the group as this replica knows it: those admitted, and those whose operations
    /// it holds (the first member, and members from before admissions were recorded); removed ones too.
    package var groupKeys: Set<PeerID> {
        Set(vector.entries.keys).union(membership.admitted).union(membership.removals.compactMap(\.step.peer))
    }

    /// Drops what removals made void: every held operation of a removed key beyond its cutoff, which
    /// arrived before the removal did. The replica is folded again from what stays, in the group's
    /// order (which has every operation after those it observed); the changes to the list are
    /// returned, each attributed to `cause`. Nil when nothing held is void (nearly always).
    ///
    /// Its own operations stay, even beyond its own cutoff: a later removal of its remover may lift
    /// that cutoff, and a replica that had forgotten what it signed would sign those seqs again with
    /// other operations, while peers still hold the first ones.
    package mutating func dropVoidOperations(cause: Operation?) -> [WatchListChange]? {
        let void = membership.cutoffs.filter { $0.key != id && vector[$0.key] > $0.value }
        // Between commits only (nothing staged); else at the next commit with a removal, or start.
        guard !void.isEmpty, staged.isEmpty else { return nil }
        var kept: [(operation: Operation, offset: UInt64?)] = []
        for origin in log.origins {
            let last = origin == id ? vector[origin] : min(vector[origin], membership.cutoff(of: origin) ?? .max)
            guard last > 0 else { continue }
            for seq in 1...last {
                // One the log can't give back (it says why): fold again at the next removal or start.
                guard let operation = keptOperation(from: origin, seq: seq) else { return nil }
                kept.append(operation)
            }
        }
        kept.sort { $0.operation.orderKey < $1.operation.orderKey }
        var fresh = Replica(id: id, name: name, list: listID)
        fresh.archive = archive
        for (op, offset) in kept { _ = fresh.replay(op, at: offset) }
        fresh.raiseLamport(to: lamport)
        fresh.droppedVoid = true
        let before = list
        self = fresh
        guard let cause else { return [] }
        return list.changes(since: before, by: cause)
    }
}

extension Replica {
    /// Operation `(origin, seq)` to fold again: without its proof and with its offset when the log
    /// holds it (the proof stays there), else with the proof held here; nil when it can't be read.
    private func keptOperation(from origin: PeerID, seq: UInt64) -> (operation: Operation, offset: UInt64?)? {
        guard let offset = log.offset(of: origin, seq: seq) else {
            return log.operations(from: origin, seqs: seq...seq, in: list).first.map { ($0, nil) }
        }
        return log.operation(from: origin, seq: seq, in: list).map { ($0, offset) }
    }
}

extension WatchList {
    /// What changed from `before` to this list, as changes made by `cause`.
    func changes(since before: WatchList, by cause: Operation) -> [WatchListChange] {
        var changes: [WatchListChange] = []
        for row in before.rows where self.row(for: row.movie.id) == nil {
            changes.append(.removed(row.movie, by: cause))
        }
        for row in rows {
            guard let old = before.row(for: row.movie.id) else {
                changes.append(.added(row, by: cause))
                continue
            }
            if old != row { changes.append(.updated(row, by: cause)) }
        }
        return changes
    }
}

extension Membership.Record {
    /// A removal in words: "removed from the group by alice at 21:04".
    package var removedWords: String { Membership.removedWords(by: by, at: at) }
}

extension Membership {
    /// "removed from the group by alice at 21:04" (the date too when it was not today): what the
    /// removed member and everyone else are told.
    package static func removedWords(by remover: String, at millis: Int64) -> String {
        let when = LocalTime.at(millis: millis)
        let time =
            when.date == LocalTime.now.date
            ? "\(LocalTime.twoDigits(when.hour)):\(LocalTime.twoDigits(when.minute))" : when.stamp
        return "removed from the group by \(remover) at \(time)"
    }
}
