/// The replicated watch list: an observed-remove set of movies.
///
/// State is the set of surviving adds plus the set of add ids that removals cancelled (tombstones).
/// `merged(with:)` is union on both and then drops tombstoned adds, so merging is commutative,
/// associative and idempotent, and applying the same operations in any order gives the same list.
/// A removal cancels only the adds it names; a re-add (a new operation) survives it.
package struct WatchList: Sendable {
    /// Each listed movie's surviving adds, in no particular order: a movie's place is `slots[movie]`,
    /// and a movie that leaves the list gives its place to the last one. Dense, so 100,000 movies
    /// take 100,000 × 112 bytes here and a table of 4-byte places in `slots` (a dictionary's table
    /// is sparse: holding the values themselves there would take more than twice the room).
    /// Rows are made when asked for, not stored.
    private var movies: [MovieAdds] = []
    private var slots: [MovieID: Int32] = [:]
    private var tombstones: Set<OperationID> = []
    /// Row positions, kept sorted: `(key, movie)`. New local adds carry the largest Lamport
    /// time, so most inserts land at the end.
    private(set) var order: [(key: OrderKey, movie: MovieID)] = []
    /// Each movie's newest describe (by order key), listed or not: a movie added again later shows
    /// its details at once, and every replica with the same operations picks the same one.
    private var descriptions: [MovieID: Operation] = [:]
    /// The newest settings operation (by order key): where the group watches.
    package private(set) var settingsOperation: Operation?
    /// In one of the group's other lists: the newest list operation (by order key), which names the
    /// list and sets its ceiling (proto/PEER.md, "Lists").
    package private(set) var definitionOperation: Operation?
    /// Every member's marks on every movie, listed or not (``GroupMarks``).
    package private(set) var marks = GroupMarks()
    /// Every pick of tonight's movie, open or closed (``Picks``).
    package private(set) var picks = Picks()
    /// Every member's name, from their newest operation.
    package private(set) var names = MemberNames()
    /// Every report of where a wanted movie streams now (``NewsFeed``).
    package private(set) var news = NewsFeed()
    /// The newest relays operation (by order key): the relays the group meets through.
    package private(set) var relaysOperation: Operation?
    /// Each peer's newest reach operation (by order key): how to reach it.
    package private(set) var reachOperations: [PeerID: Operation] = [:]

    package init() {}

    /// The group's region and services, once a member set them.
    package var settings: GroupSettings? { settingsOperation?.settings }

    /// The relays the group meets through, once a member set them (proto/PEER.md, "Relays and reach").
    package var relays: GroupRelays? { relaysOperation?.relays }

    /// The list's name and ceiling, in one of the group's other lists.
    package var definition: ListDefinition? { definitionOperation?.listDefinition }

    package var count: Int { order.count }

    package func row(for movie: MovieID) -> WatchListRow? { adds(of: movie).map(row) }

    /// Whether `movie` is on the list (without making its row).
    package func isListed(_ movie: MovieID) -> Bool { slots[movie] != nil }

    /// The newest describe of `movie`, listed or not.
    package func description(of movie: MovieID) -> Operation? { descriptions[movie] }

    /// The ids of the adds of `movie` that survive: what a removal of it must name.
    package func survivingAdds(of movie: MovieID) -> [OperationID] {
        adds(of: movie)?.ids.sorted() ?? []
    }

    /// The listed movies, in list order.
    package var listedMovies: [MovieID] { order.map(\.movie) }

    /// Rows in list order.
    package var rows: [WatchListRow] { order.map { row(adds(of: $0.movie)!) } }

    /// Up to `limit` rows that come strictly after `cursor` in list order; none when `limit` is not
    /// positive. Keyset pagination: rows added while paging land before or after the cursor, so
    /// paging never repeats or skips a row that keeps its position. A row moves only when its
    /// earliest add changes (that add is removed, or an earlier concurrent add of the movie arrives);
    /// a moved row may be seen twice or not at all.
    package func page(after cursor: OrderKey?, limit: Int) -> [WatchListRow] {
        let start = cursor.map { key in firstIndex { $0.key > key } } ?? 0
        return order[start...].prefix(max(limit, 0)).map { row(adds(of: $0.movie)!) }
    }

    /// Applies one operation. Applying an operation twice changes nothing and reports no change.
    @discardableResult
    package mutating func apply(_ operation: Operation) -> WatchListChange? {
        apply(operation, reporting: true)
    }

    /// The add named `id` of `movie`, if the list holds it.
    func add(_ id: OperationID, of movie: MovieID) -> Operation? {
        adds(of: movie)?.add(id)
    }

    /// Applies one operation; says what changed only when `reporting` (making the rows a change
    /// carries costs as much as the rest of applying an add, for a report nobody may read), and
    /// hands each add a removal drops to `retiring`. Returns nil when nothing changed or `reporting`
    /// is false.
    mutating func apply(
        _ operation: Operation,
        reporting: Bool,
        retiring: (Operation) -> Void = { _ in }
    ) -> WatchListChange? {
        names.note(operation)
        switch operation.kind {
        case .add:
            guard tombstones.isEmpty || !tombstones.contains(operation.id) else { return nil }
            guard let existed = insert(operation), reporting else { return nil }
            let row = row(for: operation.movie.id)!
            return existed ? .updated(row, by: operation) : .added(row, by: operation)
        case .remove:
            return applyRemoval(operation, reporting: reporting, retiring: retiring)
        case .describe:
            let movie = operation.movie.id
            if let current = descriptions[movie], current.orderKey >= operation.orderKey { return nil }
            descriptions[movie] = operation
            guard reporting, let row = row(for: movie) else { return nil }
            return .updated(row, by: operation)
        case .settings:
            if let current = settingsOperation, current.orderKey >= operation.orderKey { return nil }
            settingsOperation = operation
            return nil
        case .pick:
            picks.apply(operation)
            return nil
        case .mark, .watch:
            guard marks.apply(operation), reporting, let row = row(for: operation.movie.id) else { return nil }
            return .updated(row, by: operation)
        case .list:
            if let current = definitionOperation, current.orderKey >= operation.orderKey { return nil }
            definitionOperation = operation
            return nil
        case .news:
            // A listed movie's row changes with it: a follower hears of the news at once.
            guard news.apply(operation), reporting, let row = row(for: operation.movie.id) else { return nil }
            return .updated(row, by: operation)
        case .relays:
            if let current = relaysOperation, current.orderKey >= operation.orderKey { return nil }
            relaysOperation = operation
            return nil
        case .reach:
            let origin = operation.id.origin
            if let current = reachOperations[origin], current.orderKey >= operation.orderKey { return nil }
            reachOperations[origin] = operation
            return nil
        case .member, .unknown:
            return nil
        }
    }

    private mutating func applyRemoval(
        _ operation: Operation,
        reporting: Bool,
        retiring: (Operation) -> Void
    ) -> WatchListChange? {
        let fresh = operation.removes.filter { !tombstones.contains($0) }
        guard !fresh.isEmpty else { return nil }
        tombstones.formUnion(fresh)
        // An add's id names one operation, so one movie: look in the removal's own movie first
        // and search the others only for ids not found there (removals usually name adds of
        // their own movie; a forged cross-movie one is handled too).
        var affected: [MovieID: [OperationID]] = [:]
        for id in fresh {
            if adds(of: operation.movie.id)?.contains(id) == true {
                affected[operation.movie.id, default: []].append(id)
            } else {
                for index in movies.indices where movies[index].contains(id) {
                    affected[movies[index].movie, default: []].append(id)
                }
            }
        }
        var change: WatchListChange?
        for (movie, ids) in affected.sorted(by: { $0.key < $1.key }) {
            let before = reporting ? row(for: movie) : nil
            for id in ids { if let add = add(id, of: movie) { retiring(add) } }
            remove(ids, of: movie)
            guard reporting else { continue }
            if let before, adds(of: movie) == nil {
                change = .removed(before.movie, by: operation)
            } else if let after = row(for: movie), change == nil {
                change = .updated(after, by: operation)
            }
        }
        return change
    }

    /// One of the group's other lists as people see it (proto/PEER.md, "Lists"): with every
    /// member's marks from the group's list too, so "seen" is seen everywhere, and with the group's
    /// names, settings and the details fetched there.
    package mutating func borrow(from group: WatchList) {
        marks = marks.merged(with: group.marks)
        names = names.merged(with: group.names)
        if settingsOperation == nil { settingsOperation = group.settingsOperation }
        descriptions.merge(group.descriptions) { $0.orderKey >= $1.orderKey ? $0 : $1 }
        news = news.merged(with: group.news)
    }

    /// The group's list as people see it: with the marks made in its other lists held here.
    package mutating func borrowMarks(from other: WatchList) {
        marks = marks.merged(with: other.marks)
    }

    /// State-based merge: the list that holds everything either list holds.
    package func merged(with other: WatchList) -> WatchList {
        var result = WatchList()
        result.tombstones = tombstones.union(other.tombstones)
        result.descriptions = descriptions.merging(other.descriptions) { $0.orderKey >= $1.orderKey ? $0 : $1 }
        result.settingsOperation = [settingsOperation, other.settingsOperation].compactMap(\.self)
            .max { $0.orderKey < $1.orderKey }
        result.marks = marks.merged(with: other.marks)
        result.picks = picks.merged(with: other.picks)
        result.names = names.merged(with: other.names)
        result.news = news.merged(with: other.news)
        result.relaysOperation = [relaysOperation, other.relaysOperation].compactMap(\.self)
            .max { $0.orderKey < $1.orderKey }
        result.reachOperations = reachOperations.merging(other.reachOperations) { $0.orderKey >= $1.orderKey ? $0 : $1 }
        for list in [self, other] {
            for movieAdds in list.movies {
                movieAdds.forEach { add in
                    if !result.tombstones.contains(add.id) { _ = result.insert(add) }
                }
            }
        }
        return result
    }

    private func row(_ adds: MovieAdds) -> WatchListRow {
        var row = adds.row
        row.details = descriptions[adds.movie]?.details
        row.providers = providers(of: adds.movie)
        row.marks = marks.marks(of: adds.movie, names: names)
        for index in row.addedBy.indices where names.isShared(row.addedBy[index].name) {
            row.addedBy[index].name = names.name(of: row.addedBy[index].peer)
        }
        return row
    }

    private func adds(of movie: MovieID) -> MovieAdds? {
        slots[movie].map { movies[Int($0)] }
    }

    /// Adds a surviving add. Returns nil if the list already held it, else whether its movie was
    /// already listed.
    private mutating func insert(_ add: Operation) -> Bool? {
        let movie = add.movie.id
        guard let slot = slots[movie].map(Int.init) else {
            slots[movie] = Int32(movies.count)
            movies.append(MovieAdds(add))
            order.insert((add.orderKey, movie), at: firstIndex { $0.key > add.orderKey })
            return false
        }
        let before = movies[slot].key
        guard movies[slot].insert(add) else { return nil }
        reposition(movie, from: before, to: movies[slot].key)
        return true
    }

    /// Drops the adds `ids` of `movie`, and the movie itself if none of its adds is left.
    private mutating func remove(_ ids: [OperationID], of movie: MovieID) {
        guard let slot = slots[movie].map(Int.init) else { return }
        let before = movies[slot].key
        for id in ids where !movies[slot].remove(id) {
            if let index = index(of: before) { order.remove(at: index) }
            slots[movie] = nil
            let last = movies.count - 1
            if slot != last {
                movies.swapAt(slot, last)
                slots[movies[slot].movie] = Int32(slot)
            }
            movies.removeLast()
            return
        }
        reposition(movie, from: before, to: movies[slot].key)
    }

    private mutating func reposition(_ movie: MovieID, from before: OrderKey, to after: OrderKey) {
        guard before != after else { return }
        if let index = index(of: before) { order.remove(at: index) }
        order.insert((after, movie), at: firstIndex { $0.key > after })
    }

    private func index(of key: OrderKey) -> Int? {
        let i = firstIndex { $0.key >= key }
        return i < order.count && order[i].key == key ? i : nil
    }

    /// Binary search: the first index whose entry satisfies a predicate that is monotone over `order`.
    /// The first position in `order` where `predicate` holds, which it does from some position on.
    func firstIndex(where predicate: ((key: OrderKey, movie: MovieID)) -> Bool) -> Int {
        var low = 0
        var high = order.count
        while low < high {
            let mid = (low + high) / 2
            if predicate(order[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}

extension WatchList {
    /// Every operation held whole: the surviving adds, the newest describes, the settings, list and
    /// relays operations, each peer's newest reach, every pick step and every news report (``ReplicaParts``).
    var keptOperations: [Operation] {
        var kept: [Operation] = []
        kept.reserveCapacity(movies.count + descriptions.count)
        for adds in movies { adds.forEach { kept.append($0) } }
        kept += descriptions.values
        kept += [settingsOperation, definitionOperation, relaysOperation].compactMap(\.self)
        kept += reachOperations.values
        return kept + picks.operations + news.operations
    }

    /// The adds that removals cancelled.
    var tombstoneParts: [OperationID] { Array(tombstones) }

    /// Takes back what ``keptOperations`` leaves out, once those are applied again.
    mutating func restore(tombstones: [OperationID], marks: GroupMarks, names parts: [MemberNames.Part]) {
        self.tombstones = Set(tombstones)
        self.marks = marks
        names.restore(parts)
    }
}

extension WatchList: Equatable {
    /// Two lists are equal when they hold the same state; equal state shows the same rows in the same order.
    package static func == (lhs: WatchList, rhs: WatchList) -> Bool {
        lhs.tombstones == rhs.tombstones && lhs.descriptions == rhs.descriptions
            && lhs.settingsOperation == rhs.settingsOperation && lhs.picks == rhs.picks
            && lhs.news == rhs.news && lhs.relaysOperation == rhs.relaysOperation
            && lhs.reachOperations == rhs.reachOperations && lhs.movies.count == rhs.movies.count
            && lhs.movies.allSatisfy { rhs.adds(of: $0.movie) == $0 }
    }
}
