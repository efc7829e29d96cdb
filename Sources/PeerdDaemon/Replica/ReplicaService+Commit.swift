import Logging
import PeerdCodec
import PeerdModel
import PeerdSecurity
import PeerdStore

/// The commit pipeline: what is pending is staged, written in one batch, and only then applied,
/// published and acknowledged.
extension ReplicaService {
    /// One part of a local request: an operation on its way to the log, or what it did already.
    private enum Part {
        case made(Operation)
        case done(Submitted)
    }

    private enum Waiter {
        case local([Part], CheckedContinuation<Written, any Error>)
        case remote(heldAlready: Set<PeerID>, completion: @Sendable (Result<Set<PeerID>, Failure>) -> Void)
    }

    func flush() async {
        while !pending.isEmpty {
            let batch = pending
            pending.removeAll()
            makeRoom()
            var operations: [Operation] = []
            var waiters: [Waiter] = []
            for work in batch {
                guard let waiter = stage(work, into: &operations) else { continue }
                waiters.append(waiter)
            }
            if let failure = await persist(operations) {
                for waiter in waiters {
                    switch waiter {
                    case .local(_, let continuation): continuation.resume(throwing: failure)
                    case .remote(_, let completion): completion(.failure(failure))
                    }
                }
                continue
            }
            for waiter in waiters {
                switch waiter {
                case .local(let parts, let continuation):
                    let made = parts.map { part in
                        switch part {
                        case .made(let op): submitted(op)
                        case .done(let done): done
                        }
                    }
                    continuation.resume(returning: Written(made: made, after: replica))
                case .remote(let heldAlready, let completion): completion(.success(heldAlready))
                }
            }
        }
    }

    /// Stages what `work` makes, appending its operations; who waits for them, or nil when it was
    /// refused (and told so) with nothing staged.
    private func stage(_ work: Work, into operations: inout [Operation]) -> Waiter? {
        switch work {
        case .local(let requests, let at, let author, let continuation):
            if let toldRemoved {
                continuation.resume(throwing: Failure.refused(.removedFromGroup(toldRemoved)))
                return nil
            }
            do {
                // Drafted whole first (``Replica/draft(whole:at:)``): a refused part stages nothing.
                let parts = try replica.draft(whole: requests, at: at, by: author).map { draft -> Part in
                    switch draft {
                    case .alreadyListed(let row): .done(.alreadyListed(row))
                    case .alreadyMarked(let movie): .done(.alreadyMarked(movie))
                    case .operation(let draft): .made(stage(draft))
                    }
                }
                for case .made(let sealed) in parts { operations.append(sealed) }
                return .local(parts, continuation)
            } catch {
                continuation.resume(throwing: Failure.refused(error))
                return nil
            }
        case .remote(let incoming, let completion):
            do {
                let (fresh, waiting) = try admitVerified(incoming)
                replica.stage(admitted: fresh)
                operations += fresh
                holdAside(waiting)
                let heldAlready = Set(incoming.map(\.id.origin)).subtracting(fresh.map(\.id.origin))
                    .subtracting(waiting.map(\.id.origin))
                return .remote(heldAlready: heldAlready, completion: completion)
            } catch {
                completion(.failure(.rejected(error)))
                return nil
            }
        }
    }

    /// Writes the staged batch, then applies and publishes it; nil once it is durable and applied,
    /// else why it is not (and nothing of it was kept).
    private func persist(_ operations: [Operation]) async -> Failure? {
        guard !operations.isEmpty else { return nil }
        let encoded = operations.map(EncodedOperation.init)
        let offsets: [UInt64]?
        do {
            offsets = try await store.append(encoded)
        } catch {
            replica.discardStaged()
            verifier.forgetTips()
            logger.error("could not save operations", metadata: ["count": "\(operations.count)", "error": "\(error)"])
            return (error as? StoreError).map(Failure.storage) ?? .shuttingDown
        }
        recent.insert(encoded)
        let picks = operations.compactMap(\.pickID)
        let settings = replica.list.settingsOperation?.id
        var changes = replica.commit(operations, at: offsets, reportingChanges: hasChangeSubscribers)
        if let removal = operations.last(where: { $0.member?.action == .remove }),
            let dropped = replica.dropVoidOperations(cause: removal)
        {
            // What a removal made void went from the list: the verifier's chain ends go with it.
            verifier.forgetTips()
            changes += dropped
            logger.notice("dropped operations a removal made void", metadata: ["removal": "\(removal.id)"])
        }
        let list = replica.list
        let markedOffList = operations.contains { op in
            (op.kind == .mark || op.kind == .watch) && list.row(for: op.movie.id) == nil
        }
        publish(
            changes,
            origins: Set(operations.lazy.map(\.id.origin)),
            settingsChanged: list.settingsOperation?.id != settings,
            markedOffList: markedOffList
        )
        if !picks.isEmpty { pickFeed.yield(Array(Set(picks)).sorted()) }
        if operations.contains(where: { $0.kind == .member }) {
            membershipFeed.yield(replica.membership)
            admitWaiting()
        }
        return nil
    }

    /// A local operation's draft, signed by its author's key (this peer's, or a profile's), chained to its previous one, and staged.
    private func stage(_ draft: Operation) -> Operation {
        let previous = OperationID(origin: draft.id.origin, seq: draft.id.seq - 1)
        let prev = draft.id.seq == 1 ? nil : verifier.digest(of: previous, stored: stored)
        let sealed = OperationSeal.seal(draft, prev: prev, by: signers[draft.id.origin] ?? identity, in: listID)
        replica.stage(local: sealed)
        verifier.record(sealed)
        return sealed
    }

    /// What a committed local operation did.
    private func submitted(_ op: Operation) -> Submitted {
        switch op.kind {
        case .add:
            // A removal staged after the add in the same batch may have taken the row again.
            .added(op, row: replica.list.row(for: op.movie.id) ?? WatchListRow(adds: [op])!)
        case .describe: .described(op)
        case .settings, .relays, .reach: .settingsSet(op)
        case .mark, .watch: .marked(op)
        case .pick: .picked(op)
        case .member: .membersChanged(op)
        case .list: .listDefined(op)
        case .news: .reported(op)
        case .remove, .unknown: .removed(op)
        }
    }

    /// The new operations among `incoming`, once their origins' signatures vouch for them.
    private func admitVerified(
        _ incoming: [Operation]
    ) throws(Replica.Rejection) -> (fresh: [Operation], waiting: [Operation]) {
        let admission = try replica.admission(incoming)
        do {
            try verifier.verify(admission.fresh, stored: stored)
        } catch {
            throw .invalid(error.operation, reason: error.explanation)
        }
        return admission
    }

    /// A committed operation.
    private func stored(_ id: OperationID) -> Operation? {
        replica.operations(from: id.origin, seqs: id.seq...id.seq).first
    }
}
