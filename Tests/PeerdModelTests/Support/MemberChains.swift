import PeerdModel
import PropertyBased

extension Peers {
    static let dave = PeerID("da7e0000000000000000000000000004")!
    static let erin = PeerID("e4140000000000000000000000000005")!
    /// Up to five members of a group.
    static let group = all + [dave, erin]
    /// Keys a history admits that never make an operation of their own.
    static let newcomers = [PeerID("4e300000000000000000000000000006")!, PeerID("4e300000000000000000000000000007")!]
    /// Replicas that only watch a group: never an origin, so nothing they are sent is in their name.
    static let observers = [PeerID("0b5e0000000000000000000000000008")!, PeerID("0b5e0000000000000000000000000009")!]
}

/// The chains of operations a small group made, each key's in seq order: adds, marks, admissions,
/// removals naming any `seen` of the removed key's chain, and records of a group secret. Members
/// learn each other's clocks by gossip at random moments, so the lamports are valid but many
/// operations are concurrent.
struct MemberChains: Sendable, CustomStringConvertible {
    static let secrets = ["5ec0000000000000000000000000000a", "5ec0000000000000000000000000000b"]
    /// At most this many removals, so the reference can try every subset of them.
    static let removalLimit = 8

    var keys: [PeerID]
    var chains: [PeerID: [Operation]]

    var operations: [Operation] { keys.flatMap { chains[$0] ?? [] } }

    var description: String {
        keys.map { key in
            "\(Peers.name(of: key)):\n"
                + (chains[key] ?? []).map { op in
                    "  \(op.id.seq) L\(op.lamport) " + (op.member.map(\.description) ?? "\(op.kind) \(op.movie.id)")
                }.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    static func simulate(keys count: Int, steps: Int, using rng: inout some RandomNumberGenerator) -> MemberChains {
        let keys = Array(Peers.group.prefix(count))
        var chains = [[Operation]](repeating: [], count: count)
        var clock = [UInt64](repeating: 0, count: count)
        var removals = 0
        for _ in 0..<steps {
            let p = Int.random(in: 0..<count, using: &rng)
            if Int.random(in: 0..<5, using: &rng) == 0 {
                clock[p] = max(clock[p], clock[Int.random(in: 0..<count, using: &rng)])
                continue
            }
            clock[p] += 1
            let id = OperationID(origin: keys[p], seq: UInt64(chains[p].count + 1))
            let others = keys.indices.filter { $0 != p }
            var roll = Int.random(in: 0..<10, using: &rng)
            if (6..<9).contains(roll), removals == removalLimit { roll = 0 }
            let op: Operation
            switch roll {
            case 0..<3:
                op = movieOperation(id, lamport: clock[p], kind: .add, payload: nil, using: &rng)
            case 3..<5:
                let payload = History.markOrWatch(by: keys[p], lamport: clock[p], using: &rng)
                op = movieOperation(
                    id,
                    lamport: clock[p],
                    kind: payload.mark == nil ? .watch : .mark,
                    payload: payload.payload,
                    using: &rng
                )
            case 5:
                let peer = (others.map { keys[$0] } + Peers.newcomers).randomElement(using: &rng)!
                let via = MemberStep.Via.allCases.randomElement(using: &rng)!
                op = member(id, lamport: clock[p], .admit(peer, via: via, name: Bool.random(using: &rng) ? "n" : nil))
            case 6..<9:
                removals += 1
                let target = others.randomElement(using: &rng)!
                let seen = UInt64.random(in: 0...UInt64(chains[target].count), using: &rng)
                op = member(id, lamport: clock[p], .remove(keys[target], seen: seen))
            default:
                op = member(id, lamport: clock[p], .secret(secrets.randomElement(using: &rng)!))
            }
            chains[p].append(op)
        }
        return MemberChains(keys: keys, chains: Dictionary(uniqueKeysWithValues: zip(keys, chains)))
    }

    /// The same chains with other lamports, still rising along each chain.
    func relamported(using rng: inout some RandomNumberGenerator) -> MemberChains {
        var copy = self
        for key in keys {
            var lamport = UInt64.random(in: 1...3, using: &rng)
            copy.chains[key] = chains[key]?.map { op in
                var op = op
                op.lamport = lamport
                lamport += UInt64.random(in: 1...30, using: &rng)
                return op
            }
        }
        return copy
    }

    /// Every operation once, in a random order that keeps each chain's own.
    func interleaved(using rng: inout some RandomNumberGenerator) -> [Operation] {
        var next = Dictionary(uniqueKeysWithValues: keys.map { ($0, 0) })
        var order: [Operation] = []
        while let key = keys.filter({ next[$0]! < (chains[$0]?.count ?? 0) }).randomElement(using: &rng) {
            order.append(chains[key]![next[key]!])
            next[key]! += 1
        }
        return order
    }

    static func member(_ id: OperationID, lamport: UInt64, _ step: MemberStep) -> Operation {
        Operation(
            id: id,
            lamport: lamport,
            at: epoch + Int64(lamport) * 1000,
            by: Peers.name(of: id.origin),
            kind: .member,
            movie: Operation.groupMovie,
            payload: .member(step)
        )
    }

    private static func movieOperation(
        _ id: OperationID,
        lamport: UInt64,
        kind: Operation.Kind,
        payload: Operation.Payload?,
        using rng: inout some RandomNumberGenerator
    ) -> Operation {
        let movie = movieID(History.moviePool.randomElement(using: &rng)!)
        return Operation(
            id: id,
            lamport: lamport,
            at: epoch + Int64(lamport) * 1000,
            by: Peers.name(of: id.origin),
            kind: kind,
            movie: Movie(id: movie, title: "Movie \(movie)"),
            payload: payload
        )
    }
}

/// A history of a group and the orders two replicas received it in.
struct MemberDeliveries: Sendable, CustomStringConvertible {
    var chains: MemberChains
    var orders: [[Operation]]
    /// How many operations each batch of a delivery holds, cycled.
    var batchSizes: [Int]

    var description: String {
        "\(chains)\n" + orders.enumerated().map { "order \($0): \($1.map(\.id))" }.joined(separator: "\n")
            + "\nbatches \(batchSizes)"
    }
}

extension Gen where Value == MemberDeliveries {
    /// Groups of 3 to 5 keys, delivered twice in random orders.
    static var memberDeliveries: Generator<MemberDeliveries, Shrink.None<MemberDeliveries>> {
        Generator { rng in
            let chains = MemberChains.simulate(
                keys: Int.random(in: 3...5, using: &rng),
                steps: Int.random(in: 0...28, using: &rng),
                using: &rng
            )
            return MemberDeliveries(
                chains: chains,
                orders: [chains.interleaved(using: &rng), chains.interleaved(using: &rng)],
                batchSizes: (0..<3).map { _ in Int.random(in: 1...4, using: &rng) }
            )
        }
    }
}
