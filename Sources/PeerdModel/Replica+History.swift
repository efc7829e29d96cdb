/// The signed log read back, newest first: `peerctl history` and the page's activity view.
extension Replica {
    /// Up to `limit` held operations whose gists `include` keeps, newest first by the list's order,
    /// from just before `cursor` (from the newest when nil): keyset paging, as the list pages.
    /// Those that can't be read back from the log (it says why) are left out.
    ///
    /// Each origin's operations are in the list's order already (its seqs and its lamports both
    /// rise), so this walks each origin back from its last operation before `cursor` and merges the
    /// walks, rather than sorting the whole log for one page. The walk reads gists only: only the
    /// operations of the page are read whole.
    package func history(
        before cursor: OrderKey?,
        limit: Int,
        where include: (OperationGist) -> Bool
    ) -> [Operation] {
        var heads: [(origin: PeerID, seq: UInt64, key: OrderKey)] = []
        for origin in log.origins {
            let seq = lastSeq(of: origin, before: cursor)
            if seq > 0 { heads.append((origin, seq, orderKey(of: origin, seq: seq))) }
        }
        var page: [OperationID] = []
        while page.count < max(limit, 0), !heads.isEmpty {
            let newest = heads.indices.max { heads[$0].key < heads[$1].key }!
            let head = heads[newest]
            if include(log.gist(from: head.origin, seq: head.seq, in: list)) {
                page.append(OperationID(origin: head.origin, seq: head.seq))
            }
            if head.seq > 1 {
                heads[newest] = (head.origin, head.seq - 1, orderKey(of: head.origin, seq: head.seq - 1))
            } else {
                heads.remove(at: newest)
            }
        }
        return page.compactMap { log.operation(from: $0.origin, seq: $0.seq, in: list) }
    }

    private func orderKey(of origin: PeerID, seq: UInt64) -> OrderKey {
        OrderKey(lamport: log.gist(from: origin, seq: seq, in: list).lamport, origin: origin, seq: seq)
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
            if orderKey(of: origin, seq: middle) < cursor {
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
    /// the log's gists, for the few movies a page of history or a re-add needs, and a read of the
    /// operation found for each.
    package func lastNamed(_ movies: Set<MovieID>) -> [MovieID: Movie] {
        guard !movies.isEmpty else { return [:] }
        var newest: [MovieID: OrderKey] = [:]
        log.forEachGist(in: list) { id, gist in
            guard gist.isTitled, movies.contains(gist.movie) else { return }
            let key = OrderKey(lamport: gist.lamport, origin: id.origin, seq: id.seq)
            if let current = newest[gist.movie], current > key { return }
            newest[gist.movie] = key
        }
        return newest.compactMapValues { log.operation(from: $0.origin, seq: $0.seq, in: list)?.movie }
    }
}
