import PeerdModel
import PropertyBased

/// One history and what several replicas received of it: each arrangement is a subset of the
/// history (or all of it) in the order one replica happened to receive it.
struct Deliveries: Sendable, CustomStringConvertible {
    var history: History
    var arrangements: [[Operation]]

    var description: String {
        "history:\n\(history)\n"
            + arrangements.enumerated().map { "replica \($0): \($1.map(\.id))" }.joined(separator: "\n")
    }

    /// A replica's list: its arrangement applied in order.
    func list(_ index: Int) -> WatchList { WatchList(applying: arrangements[index]) }
}

extension Gen where Value == History {
    /// Histories of 2 to 3 origins taking up to `steps` turns.
    static func history(steps: ClosedRange<Int> = 0...40) -> Generator<History, Shrink.None<History>> {
        Generator { rng in
            History.simulate(
                origins: Int.random(in: 2...3, using: &rng),
                steps: Int.random(in: steps, using: &rng),
                using: &rng
            )
        }
    }
}

extension Gen where Value == Deliveries {
    /// The whole history delivered `count` times, each time in its own random order: removals
    /// often arrive before the adds they name.
    static func permutations(_ count: Int) -> Generator<Deliveries, Shrink.None<Deliveries>> {
        Generator { rng in
            let history = Gen<History>.history().run(using: &rng)
            let arrangements = (0..<count).map { _ in history.operations.shuffled(using: &rng) }
            return Deliveries(history: history, arrangements: arrangements)
        }
    }

    /// `count` random subsets of one history, each in a random order: replicas that have each
    /// seen part of what happened.
    static func subsets(_ count: Int) -> Generator<Deliveries, Shrink.None<Deliveries>> {
        Generator { rng in
            let history = Gen<History>.history().run(using: &rng)
            let arrangements = (0..<count).map { _ in
                history.operations.filter { _ in Bool.random(using: &rng) }.shuffled(using: &rng)
            }
            return Deliveries(history: history, arrangements: arrangements)
        }
    }
}
