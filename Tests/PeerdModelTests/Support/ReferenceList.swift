import PeerdModel

/// The rows a set of operations must show, computed the slow, obvious way from DESIGN.md's rules:
/// an add survives unless some removal names it; a movie's surviving adds make one row placed at
/// its earliest add in `(lamport, origin, seq)` order, listing each adder once in add order, with
/// title and year from the earliest add that has them, and the details of the describe of that
/// movie that comes last in `(lamport, origin, seq)` order.
func referenceRows(of operations: some Collection<Operation>) -> [WatchListRow] {
    let removed = Set(operations.flatMap(\.removes))
    let surviving = operations.filter { $0.kind == .add && !removed.contains($0.id) }
    let byMovie = Dictionary(grouping: surviving, by: \.movie.id)
    let rows = byMovie.values.map { adds in
        let sorted = adds.sorted { $0.orderKey < $1.orderKey }
        var adders: [WatchListRow.Adder] = []
        for add in sorted where !adders.map(\.peer).contains(add.id.origin) {
            adders.append(WatchListRow.Adder(name: add.by, peer: add.id.origin))
        }
        return WatchListRow(
            movie: Movie(
                id: sorted[0].movie.id,
                title: sorted.first { $0.movie.title != nil }?.movie.title,
                year: sorted.first { $0.movie.year != nil }?.movie.year
            ),
            key: sorted[0].orderKey,
            addedBy: adders,
            addedAt: sorted[0].at,
            details: operations.filter { $0.kind == .describe && $0.movie.id == sorted[0].movie.id }
                .max { $0.orderKey < $1.orderKey }?.details
        )
    }
    return rows.sorted { $0.key < $1.key }
}
