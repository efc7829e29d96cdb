import Logging
import PeerdCodec
import PeerdModel
import PeerdSecurity
import PeerdStore

/// The commit pipeline: what is pending is staged, written in one batch, and only then applied,
/// published and acknowledged.
extension ReplicaService {
    private enum Waiter {
        case local(Operation, CheckedContinuation<Submitted, any Error>)
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
                switch work {
                case .local(let request, let at, let continuation):
                    do {
                        switch try replica.draft(request, at: at) {
                        case .alreadyListed(let row):
                            continuation.resume(returning: .alreadyListed(row))
                        case .alreadyMarked(let movie):
                            continuation.resume(returning: .alreadyMarked(movie))
                        case .operation(let draft):
                            let sealed = stage(draft)
                            operations.append(sealed)
                            waiters.append(.local(sealed, continuation))
                        }
                    } catch {
                        continuation.resume(throwing: Failure.refused(error))
                    }
                case .remote(let incoming, let completion):
                    do {
                        let fresh = try admitVerified(incoming)
                        replica.stage(admitted: fresh)
                        operations += fresh
                        let heldAlready = Set(incoming.map(\.id.origin)).subtracting(fresh.map(\.id.origin))
                        waiters.append(.remote(heldAlready: heldAlready, completion: completion))
                    } catch {
                        completion(.failure(.rejected(error)))
                    }
                }
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
                case .local(let op, let continuation): continuation.resume(returning: submitted(op))
                case .remote(let heldAlready, let completion): completion(.success(heldAlready))
                }
            }
        }
    }

    /// Writes the staged batch, then applies and publishes it; nil once it is durable and applied,
    /// else why it is not (and nothing of it was kept).
    private func persist(_ operations: [Operation]) async -> Failure? {
        guard !operations.isEmpty else { return nil }
        let encoded = operations.map(EncodedOperation.init)
        do {
            try await store.append(encoded)
        } catch {
            replica.discardStaged()
            verifier.forgetTips()
            logger.error("could not save operations", metadata: ["count": "\(operations.count)", "error": "\(error)"])
            return (error as? StoreError).map(Failure.storage) ?? .shuttingDown
        }
        recent.insert(encoded)
        let picks = operations.compactMap(\.pickID)
        let settings = replica.list.settingsOperation?.id
        let changes = replica.commit(operations, reportingChanges: hasChangeSubscribers)
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
        return nil
    }

    /// A local operation's draft, signed by this peer, chained to its previous one, and staged.
    private func stage(_ draft: Operation) -> Operation {
        let previous = OperationID(origin: draft.id.origin, seq: draft.id.seq - 1)
        let prev = draft.id.seq == 1 ? nil : verifier.digest(of: previous, stored: stored)
        let sealed = OperationSeal.seal(draft, prev: prev, by: identity)
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
        case .settings: .settingsSet(op)
        case .mark, .watch: .marked(op)
        case .pick: .picked(op)
        case .remove, .unknown: .removed(op)
        }
    }

    /// The new operations among `incoming`, once their origins' signatures vouch for them.
    private func admitVerified(_ incoming: [Operation]) throws(Replica.Rejection) -> [Operation] {
        let fresh = try replica.admit(incoming)
        do {
            try verifier.verify(fresh, stored: stored)
        } catch {
            throw .invalid(error.operation, reason: error.explanation)
        }
        return fresh
    }

    /// A committed operation.
    private func stored(_ id: OperationID) -> Operation? {
        replica.operations(from: id.origin, seqs: id.seq...id.seq).first
    }
}
