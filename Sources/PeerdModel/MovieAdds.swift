/// The surviving adds of one listed movie, earliest (in `orderKey` order) first; never empty.
///
/// Nearly every movie is added once, so the earliest add is held inline and only the others go in
/// an array: a movie costs one value in the list's dense array and no allocation of its own. The
/// list used to hold `[MovieID: [OperationID: Operation]]` plus a stored row per movie: a small
/// dictionary (a heap object of a few hundred bytes) and a row with its own `addedBy` array for
/// every movie. With 100,000 movies the daemon's VmRSS went from 145 MB to 74 MB with this layout
/// (and with changes made only when someone listens, see `WatchList.apply(_:reporting:retiring:)`).
struct MovieAdds: Hashable, Sendable {
    private(set) var earliest: Operation
    /// The other surviving adds, in `orderKey` order.
    private(set) var later: [Operation] = []

    init(_ add: Operation) {
        earliest = add
    }

    var movie: MovieID { earliest.movie.id }
    /// The row's position in the list.
    var key: OrderKey { earliest.orderKey }
    var count: Int { later.count + 1 }

    var ids: [OperationID] { [earliest.id] + later.map(\.id) }

    func contains(_ id: OperationID) -> Bool {
        earliest.id == id || later.contains { $0.id == id }
    }

    /// The add named `id`, if it is here.
    func add(_ id: OperationID) -> Operation? {
        earliest.id == id ? earliest : later.first { $0.id == id }
    }

    /// Adds `add` in order; false if an add with its id is already here.
    mutating func insert(_ add: Operation) -> Bool {
        guard !contains(add.id) else { return false }
        let key = add.orderKey
        if key < earliest.orderKey {
            later.insert(earliest, at: 0)
            earliest = add
        } else {
            later.insert(add, at: later.firstIndex { key < $0.orderKey } ?? later.endIndex)
        }
        return true
    }

    /// Drops the add named `id` if it is here. Returns false if it was the only one: the caller then
    /// drops the whole value, which would otherwise be empty.
    mutating func remove(_ id: OperationID) -> Bool {
        if earliest.id == id {
            guard !later.isEmpty else { return false }
            earliest = later.removeFirst()
        } else {
            later.removeAll { $0.id == id }
        }
        return true
    }

    /// The row these adds make.
    var row: WatchListRow {
        guard !later.isEmpty else {
            let adder = WatchListRow.Adder(name: earliest.by, peer: earliest.id.origin)
            return WatchListRow(movie: earliest.movie, key: key, addedBy: [adder], addedAt: earliest.at)
        }
        return WatchListRow(adds: [earliest] + later)!
    }

    /// Every add, earliest first.
    func forEach(_ body: (Operation) -> Void) {
        body(earliest)
        later.forEach(body)
    }
}
