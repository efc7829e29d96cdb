import PeerdModel
import PeerdTestKit
import PropertyBased

/// What happens to a few replicas, one step at a time.
struct ReplicaSchedule: Sendable, CustomStringConvertible {
    enum Step: Sendable, CustomStringConvertible {
        /// Someone asks `replica` for a change; `persisted` is false when the fsync fails.
        case request(replica: Int, Replica.LocalRequest, persisted: Bool)
        /// `receiver` catches up from `sender`: at most `limit` operations (the connection may
        /// drop), interleaved across origins and sprinkled with resends as `seed` decides.
        case pull(receiver: Int, sender: Int, limit: Int, seed: UInt64)

        var description: String {
            switch self {
            case .request(let replica, let request, let persisted):
                "\(replica): \(request)\(persisted ? "" : " (persist fails)")"
            case .pull(let receiver, let sender, let limit, let seed):
                "\(receiver) <- \(sender) up to \(limit) (seed \(seed))"
            }
        }
    }

    var replicaCount: Int
    var steps: [Step]

    var description: String { "\(replicaCount) replicas:\n" + steps.map(\.description).joined(separator: "\n") }
}

extension Gen where Value == ReplicaSchedule {
    static var replicaSchedule: Generator<ReplicaSchedule, Shrink.None<ReplicaSchedule>> {
        Generator { rng in
            let count = Int.random(in: 2...3, using: &rng)
            let steps = (0..<Int.random(in: 0...40, using: &rng)).map { _ -> ReplicaSchedule.Step in
                let replica = Int.random(in: 0..<count, using: &rng)
                let movie = movieID(History.moviePool.randomElement(using: &rng)!)
                switch Int.random(in: 0..<10, using: &rng) {
                case 0..<4:
                    let other = (replica + Int.random(in: 1..<count, using: &rng)) % count
                    return .pull(
                        receiver: replica,
                        sender: other,
                        limit: Int.random(in: 0...12, using: &rng),
                        seed: UInt64.random(in: 0...UInt64.max, using: &rng)
                    )
                case 4..<7:
                    let title = Bool.random(using: &rng) ? "Movie \(movie)" : nil
                    return .request(
                        replica: replica,
                        .add(Movie(id: movie, title: title)),
                        persisted: Int.random(in: 0..<8, using: &rng) > 0
                    )
                default:
                    return .request(replica: replica, .remove(movie), persisted: Int.random(in: 0..<8, using: &rng) > 0)
                }
            }
            return ReplicaSchedule(replicaCount: count, steps: steps)
        }
    }
}

/// Replicas that talk only through the calls the sync layer will make.
struct ReplicaNetwork {
    var replicas: [Replica]
    var clock = epoch

    init(count: Int) {
        replicas = Peers.all.prefix(count).map { Replica(id: $0, name: Peers.name(of: $0)) }
    }

    mutating func perform(_ step: ReplicaSchedule.Step) throws {
        switch step {
        case .request(let index, let request, let persisted):
            clock += 1_000
            // A refusal (adding a listed movie, removing an unlisted one) is a normal answer.
            guard let operation = try? replicas[index].stage(request, at: clock) else { return }
            if persisted {
                _ = replicas[index].commit([operation])
            } else {
                replicas[index].discardStaged()
            }
        case .pull(let receiver, let sender, let limit, let seed):
            try pull(into: receiver, from: sender, limit: limit, seed: seed)
        }
    }

    /// Sends `receiver` what its vector says it lacks from `sender`, as one batch.
    mutating func pull(into receiver: Int, from sender: Int, limit: Int = .max, seed: UInt64 = 0) throws {
        var rng = SplitMix64(seed: seed)
        let source = replicas[sender]
        let have = replicas[receiver].vector
        var streams = source.vector.missing(from: have).map { Array(source.operations(from: $0.origin, seqs: $0.seqs)) }
        // Resends of operations the receiver already holds must be dropped quietly.
        for (origin, seqs) in have.missing(from: VersionVector()) where Bool.random(using: &rng) {
            streams.append(Array(source.operations(from: origin, seqs: seqs)))
        }
        // Interleave the streams at random, keeping each one's own order.
        var batch: [Operation] = []
        streams.removeAll { $0.isEmpty }
        while batch.count < limit, !streams.isEmpty {
            let index = Int.random(in: streams.indices, using: &rng)
            batch.append(streams[index].removeFirst())
            if streams[index].isEmpty { streams.remove(at: index) }
        }
        let fresh = try replicas[receiver].admit(batch)
        _ = replicas[receiver].commit(fresh)
    }

    /// Pulls between every pair until no replica lacks anything another holds.
    mutating func settle() throws {
        for _ in replicas.indices {
            for receiver in replicas.indices {
                for sender in replicas.indices where sender != receiver {
                    try pull(into: receiver, from: sender)
                }
            }
        }
    }
}
