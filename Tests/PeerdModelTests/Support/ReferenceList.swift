import PeerdModel

/// The rows a set of operations must show, computed the slow, obvious way from DESIGN.md's rules:
/// an add survives unless some removal names it; a movie's surviving adds make one row placed at
/// its earliest add in `(lamport, origin, seq)` order, listing each adder once in add order, with
/// title and year from the earliest add that has them, and the details of the describe of that
/// movie that comes last in `(lamport, origin, seq)` order; where it streams, from the last news of
/// it when that comes after that describe and is of the group's region (the last settings', else
/// the describe's), else from that describe.
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
        let movie = sorted[0].movie.id
        let describe = operations.filter { $0.kind == .describe && $0.movie.id == movie }.max {
            $0.orderKey < $1.orderKey
        }
        var row = WatchListRow(
            movie: Movie(
                id: sorted[0].movie.id,
                title: sorted.first { $0.movie.title != nil }?.movie.title,
                year: sorted.first { $0.movie.year != nil }?.movie.year
            ),
            key: sorted[0].orderKey,
            addedBy: adders,
            addedAt: sorted[0].at,
            details: describe?.details,
            marks: referenceMarks(of: movie, in: operations)
        )
        let settings = operations.filter { $0.kind == .settings }.max { $0.orderKey < $1.orderKey }?.settings
        let region = settings?.region ?? describe?.details?.providers?.region
        let news = operations.filter { $0.kind == .news && $0.movie.id == movie }.max { $0.orderKey < $1.orderKey }
        if let news, describe.map({ $0.orderKey < news.orderKey }) ?? true, news.news?.providers.region == region {
            row.providers = news.news?.providers
        } else {
            row.providers = describe?.details?.providers
        }
        return row
    }
    return rows.sorted { $0.key < $1.key }
}

/// What `member` is called: the `by` of their newest operation; failing that, the name the newest
/// (by origin and seq) admission of them as a profile gave; failing that, their short id.
func referenceName(of member: PeerID, in operations: some Collection<Operation>) -> String {
    if let own = operations.filter({ $0.id.origin == member }).max(by: { $0.orderKey < $1.orderKey }) {
        return own.by
    }
    let admissions = operations.filter {
        $0.member?.action == .admit && $0.member?.via == .profile && $0.member?.peer == member
            && $0.member?.name != nil
    }
    let newest = admissions.max { ($0.id.origin, $0.id.seq) < ($1.id.origin, $1.id.seq) }
    return newest?.member?.name ?? member.short
}

/// Each member's marks on `movie` by the rules written out plainly: per member and kind, the newest
/// (by order key) of their own marks of that kind and, for `seen`, of the watches that name them,
/// or a set rating newer than both; named as ``referenceName(of:in:)`` says; members with nothing set left
/// out.
func referenceMarks(of movie: MovieID, in operations: some Collection<Operation>) -> [MemberMarks] {
    var candidates: [PeerID: [(key: OrderKey, mark: Mark)]] = [:]
    for op in operations where op.movie.id == movie {
        if let mark = op.mark { candidates[op.id.origin, default: []].append((op.orderKey, mark)) }
        for member in op.watch?.with ?? [] {
            candidates[member, default: []].append((op.orderKey, Mark(kind: .seen, on: op.watch?.on)))
        }
    }
    return candidates.compactMap { member, marks in
        var result = MemberMarks(member: member, name: referenceName(of: member, in: operations))
        func newest(_ kind: Mark.Kind) -> (key: OrderKey, mark: Mark)? {
            marks.filter { $0.mark.kind == kind }.max { $0.key < $1.key }
        }
        for kind in Mark.Kind.allCases {
            if let newest = newest(kind) { result.take(newest.mark) }
        }
        // A rating is a viewing: set, and no seen mark (or watch) is newer.
        if let rating = newest(.rating), rating.mark.set, newest(.seen).map({ $0.key < rating.key }) ?? true {
            result.seen = true
        }
        return result.isEmpty ? nil : result
    }.sorted { $0.member < $1.member }
}

/// The group's relays by proto/PEER.md's rule written out plainly: those of the relays operation that
/// comes last in `(lamport, origin, seq)` order; nil when there is none.
func referenceRelays(of operations: some Collection<Operation>) -> GroupRelays? {
    operations.filter { $0.kind == .relays }.max { $0.orderKey < $1.orderKey }?.relays
}

/// How to reach each origin that told: its reach operation that comes last in `(lamport, origin, seq)` order.
func referenceReaches(of operations: some Collection<Operation>) -> [PeerID: Operation] {
    Dictionary(grouping: operations.filter { $0.kind == .reach }, by: \.id.origin).mapValues { ops in
        ops.max { $0.orderKey < $1.orderKey }!
    }
}
