/// The signed log read back, newest first: `peerctl history` and the page's activity view.
extension Replica {
    /// Up to `limit` held operations that `include` keeps, newest first by the list's order, from
    /// just before `cursor` (from the newest when nil): keyset paging, as the list pages.
    ///
    /// Each origin's operations are in the list's order already (its seqs and its lamports both
    /// rise), so this walks each origin back from its last operation before `cursor` and merges the
    /// walks, rather than sorting the whole log for one page.
    package func history(before cursor: OrderKey?, limit: Int, where include: (Operation) -> Bool) -> [Operation] {
        var heads: [(origin: PeerID, seq: UInt64, op: Operation)] = []
        for origin in log.origins {
            let seq = lastSeq(of: origin, before: cursor)
            if seq > 0 { heads.append((origin, seq, log.operation(from: origin, seq: seq, in: list))) }
        }
        var page: [Operation] = []
        while page.count < max(limit, 0), !heads.isEmpty {
            let newest = heads.indices.max { heads[$0].op.orderKey < heads[$1].op.orderKey }!
            let head = heads[newest]
            if include(head.op) { page.append(head.op) }
            if head.seq > 1 {
                heads[newest] = (
                    head.origin, head.seq - 1, log.operation(from: head.origin, seq: head.seq - 1, in: list)
                )
            } else {
                heads.remove(at: newest)
            }
        }
        return page
    }

    /// The last seq of `origin` whose operation comes before `cursor` (the last of all when nil),
    /// or 0 when none does: a binary search, since its operations are in order.
    private func lastSeq(of origin: PeerID, before cursor: OrderKey?) -> UInt64 {
        let count = log.count(of: origin)
        guard let cursor else { return count }
        var low: UInt64 = 0  // operations 1...low come before the cursor
        var high = count
        while low < high {
            let middle = (low + high + 1) / 2
            if log.operation(from: origin, seq: middle, in: list).orderKey < cursor {
                low = middle
            } else {
                high = middle - 1
            }
        }
        return low
    }
}

extension Replica {
    /// Each of `movies` as the newest operation that gave its title names it: how to name a movie
    /// that is not listed (removed, or only marked) and that no describe reached. One pass over
    /// the log, for the few movies a page of history or a re-add needs.
    package func lastNamed(_ movies: Set<MovieID>) -> [MovieID: Movie] {
        guard !movies.isEmpty else { return [:] }
        var named: [MovieID: (key: OrderKey, movie: Movie)] = [:]
        log.forEach(in: list) { op in
            guard op.movie.title != nil, movies.contains(op.movie.id) else { return }
            if let current = named[op.movie.id], current.key > op.orderKey { return }
            named[op.movie.id] = (op.orderKey, op.movie)
        }
        return named.mapValues(\.movie)
    }
}
