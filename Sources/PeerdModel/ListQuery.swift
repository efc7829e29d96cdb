/// Which rows of the list to show and in what order (`peerctl list --unseen --by alice --sort wants`):
/// pure, so the page, the control socket and the tests filter the same way.
package struct ListQuery: Hashable, Sendable {
    package enum Sort: String, CaseIterable, Hashable, Sendable, Codable {
        /// The list's own order: when it was first added.
        case added
        /// Most wanted first.
        case wants
        /// Highest average rating first; unrated last.
        case rating
        /// By title, ignoring case.
        case title
    }

    /// Only what the group's services stream in its region.
    package var streaming = false
    /// Only what none of these members has seen; none means none of the group's members. (A few
    /// members: a scan of them is quicker than hashing a peer id for every mark.)
    package var unseenBy: [PeerID]?
    /// Only what at least one of these members wants.
    package var wantedBy: [PeerID]?
    package var sort = Sort.added

    package init(
        streaming: Bool = false,
        unseenBy: [PeerID]? = nil,
        wantedBy: [PeerID]? = nil,
        sort: Sort = .added
    ) {
        self.streaming = streaming
        self.unseenBy = unseenBy
        self.wantedBy = wantedBy
        self.sort = sort
    }

    /// Whether every row is shown in the list's order: then pages are cut by the rows' own keys.
    package var isWholeList: Bool { self == ListQuery() }

    /// Whether `movie` is kept: read from the list's marks and details, no row made.
    package func keeps(_ movie: MovieID, in list: WatchList) -> Bool {
        if streaming, list.settings?.streamingService(in: list.providers(of: movie)) == nil {
            return false
        }
        if let unseenBy, list.marks.anyone(in: unseenBy, has: .seen, on: movie) { return false }
        if let wantedBy, !list.marks.anyone(in: wantedBy, has: .want, on: movie) { return false }
        return true
    }

    /// `rows` (in list order) in this query's order; ties keep the list's order.
    package func sorted(_ rows: [WatchListRow]) -> [WatchListRow] {
        switch sort {
        case .added: return rows
        case .wants:
            return rows.enumerated().map { ($0.offset, $0.element.marks.wantedBy.count, $0.element) }
                .sorted { ($1.1, $0.0) < ($0.1, $1.0) }.map(\.2)
        case .rating:
            return rows.enumerated().map { ($0.offset, $0.element.marks.averageRating ?? -1, $0.element) }
                .sorted { ($1.1, $0.0) < ($0.1, $1.0) }.map(\.2)
        case .title:
            // Rows without a title yet (no details, no title given) come last.
            return rows.enumerated().map { ($0.offset, $0.element.title?.lowercased(), $0.element) }
                .sorted { left, right in
                    switch (left.1, right.1) {
                    case (let a?, let b?): (a, left.0) < (b, right.0)
                    case (nil, nil): left.0 < right.0
                    case (_?, nil): true
                    case (nil, _?): false
                    }
                }.map(\.2)
        }
    }
}

extension WatchList {
    /// The rows `query` keeps, in its order. A movie's row is made only once the query keeps it.
    package func rows(matching query: ListQuery) -> [WatchListRow] {
        guard !query.isWholeList else { return rows }
        return query.sorted(listedMovies.filter { query.keeps($0, in: self) }.compactMap(row(for:)))
    }

    /// The rows `query` keeps after `cursor`, in the list's own order, made one at a time while
    /// `take` accepts them (at most `limit`; the first row it refuses is left for the next page);
    /// how many rows the query keeps in all; and whether kept rows follow the page.
    package func page(
        matching query: ListQuery,
        after cursor: OrderKey?,
        limit: Int,
        while take: (WatchListRow) -> Bool = { _ in true }
    ) -> (rows: [WatchListRow], total: Int, more: Bool) {
        // One pass picks what the query keeps; the page is then cut from that as from the list.
        let kept = query.isWholeList ? order : order.filter { query.keeps($0.movie, in: self) }
        var index = cursor.map { key in kept.partitioningIndex { $0.key > key } } ?? 0
        var rows: [WatchListRow] = []
        while index < kept.count, rows.count < limit, let row = row(for: kept[index].movie), take(row) {
            rows.append(row)
            index += 1
        }
        return (rows, kept.count, index < kept.count)
    }
}

extension RandomAccessCollection {
    /// The first index where `predicate` holds, which it does from some index on: a binary search.
    func partitioningIndex(where predicate: (Element) -> Bool) -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if predicate(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
