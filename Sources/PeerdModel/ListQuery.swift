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
    /// Only what none of these members has seen; an empty set means none of the group's members.
    package var unseenBy: Set<PeerID>?
    /// Only what at least one of these members wants.
    package var wantedBy: Set<PeerID>?
    package var sort = Sort.added

    package init(
        streaming: Bool = false,
        unseenBy: Set<PeerID>? = nil,
        wantedBy: Set<PeerID>? = nil,
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
        if streaming, list.settings?.streamingService(in: list.description(of: movie)?.details?.providers) == nil {
            return false
        }
        if let unseenBy, list.marks.contains(.seen, on: movie, by: { unseenBy.isEmpty || unseenBy.contains($0) }) {
            return false
        }
        if let wantedBy, !list.marks.contains(.want, on: movie, by: wantedBy.contains) { return false }
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

    /// Up to `limit` rows `query` keeps after `cursor`, in the list's own order, and how many it
    /// keeps in all: only the page's rows are made.
    package func page(matching query: ListQuery, after cursor: OrderKey?, limit: Int) -> (
        rows: [WatchListRow], total: Int
    ) {
        var total = 0
        var page: [WatchListRow] = []
        for (key, movie) in order where query.keeps(movie, in: self) {
            total += 1
            if page.count < limit, cursor.map({ key > $0 }) ?? true, let row = row(for: movie) { page.append(row) }
        }
        return (page, total)
    }
}
