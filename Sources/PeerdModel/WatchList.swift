/// The replicated watch list: an observed-remove set of movies.
///
/// State is the set of surviving adds plus the set of add ids that removals cancelled (tombstones).
/// `merged(with:)` is union on both and then drops tombstoned adds, so merging is commutative,
/// associative and idempotent, and applying the same operations in any order gives the same list.
/// A removal cancels only the adds it names; a re-add (a new operation) survives it.
public struct WatchList: Sendable {
    private var adds: [MovieID: [OperationID: Operation]] = [:]
    private var tombstones: Set<OperationID> = []
    private var rowsByMovie: [MovieID: WatchListRow] = [:]
    /// Row positions, kept sorted: `(key, movie)`. New local adds carry the largest Lamport
    /// time, so most inserts land at the end.
    private var order: [(key: OrderKey, movie: MovieID)] = []

    public init() {}

    public var count: Int { order.count }

    public func row(for movie: MovieID) -> WatchListRow? { rowsByMovie[movie] }

    /// The ids of the adds of `movie` that survive: what a removal of it must name.
    public func survivingAdds(of movie: MovieID) -> [OperationID] {
        (adds[movie]?.keys).map { $0.sorted() } ?? []
    }

    /// Rows in list order.
    public var rows: [WatchListRow] { order.map { rowsByMovie[$0.movie]! } }

    /// Up to `limit` rows that come strictly after `cursor` in list order; none when `limit` is not
    /// positive. Keyset pagination: rows added while paging land before or after the cursor, so
    /// paging never repeats or skips a row that keeps its position. A row moves only when its
    /// earliest add changes (that add is removed, or an earlier concurrent add of the movie arrives);
    /// a moved row may be seen twice or not at all.
    public func page(after cursor: OrderKey?, limit: Int) -> [WatchListRow] {
        let start = cursor.map { key in firstIndex { $0.key > key } } ?? 0
        return order[start...].prefix(max(limit, 0)).map { rowsByMovie[$0.movie]! }
    }

    /// Applies one operation. Applying an operation twice changes nothing and reports no change.
    @discardableResult
    public mutating func apply(_ operation: Operation) -> WatchListChange? {
        let movie = operation.movie.id
        switch operation.kind {
        case .add:
            guard !tombstones.contains(operation.id), adds[movie]?[operation.id] == nil else { return nil }
            adds[movie, default: [:]][operation.id] = operation
        case .remove:
            let fresh = operation.removes.filter { !tombstones.contains($0) }
            guard !fresh.isEmpty else { return nil }
            tombstones.formUnion(fresh)
            var affected = Set<MovieID>()
            for id in fresh {
                for (movieID, movieAdds) in adds where movieAdds[id] != nil {
                    adds[movieID]![id] = nil
                    affected.insert(movieID)
                }
            }
            // Removals usually name adds of their own movie; a forged cross-movie one is handled too.
            var change: WatchListChange?
            for movieID in affected.sorted() {
                let before = rowsByMovie[movieID]
                refreshRow(movieID)
                if let before, rowsByMovie[movieID] == nil {
                    change = .removed(before.movie, by: operation)
                } else if let after = rowsByMovie[movieID], change == nil {
                    change = .updated(after, by: operation)
                }
            }
            return change
        }
        let existed = rowsByMovie[movie] != nil
        refreshRow(movie)
        guard let row = rowsByMovie[movie] else { return nil }
        return existed ? .updated(row, by: operation) : .added(row, by: operation)
    }

    /// State-based merge: the list that holds everything either list holds.
    public func merged(with other: WatchList) -> WatchList {
        var result = self
        result.tombstones.formUnion(other.tombstones)
        for (_, movieAdds) in other.adds {
            for (_, add) in movieAdds { result.adds[add.movie.id, default: [:]][add.id] = add }
        }
        for (movieID, movieAdds) in result.adds {
            result.adds[movieID] = movieAdds.filter { !result.tombstones.contains($0.key) }
        }
        result.order = []
        result.rowsByMovie = [:]
        for movieID in result.adds.keys { result.refreshRow(movieID) }
        return result
    }

    private mutating func refreshRow(_ movie: MovieID) {
        if let old = rowsByMovie[movie], let index = index(of: old.key) {
            order.remove(at: index)
        }
        let movieAdds = (adds[movie] ?? [:]).values
        guard let row = WatchListRow(adds: movieAdds) else {
            rowsByMovie[movie] = nil
            adds[movie] = nil
            return
        }
        rowsByMovie[movie] = row
        order.insert((row.key, movie), at: firstIndex { $0.key > row.key })
    }

    private func index(of key: OrderKey) -> Int? {
        let i = firstIndex { $0.key >= key }
        return i < order.count && order[i].key == key ? i : nil
    }

    /// Binary search: the first index whose entry satisfies a predicate that is monotone over `order`.
    private func firstIndex(where predicate: ((key: OrderKey, movie: MovieID)) -> Bool) -> Int {
        var low = 0
        var high = order.count
        while low < high {
            let mid = (low + high) / 2
            if predicate(order[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}

extension WatchList: Equatable {
    /// Two lists are equal when they hold the same state; equal state shows the same rows in the same order.
    public static func == (lhs: WatchList, rhs: WatchList) -> Bool {
        lhs.adds == rhs.adds && lhs.tombstones == rhs.tombstones
    }
}
