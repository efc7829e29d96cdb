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

    /// Whether `row` is kept, given the group's settings.
    package func keeps(_ row: WatchListRow, settings: GroupSettings?) -> Bool {
        if streaming, settings?.streamingService(in: row.details?.providers) == nil { return false }
        if let unseenBy {
            let seen = row.marks.lazy.filter(\.seen)
            if unseenBy.isEmpty ? !seen.isEmpty : seen.contains(where: { unseenBy.contains($0.member) }) {
                return false
            }
        }
        if let wantedBy, !row.marks.contains(where: { $0.wants && wantedBy.contains($0.member) }) { return false }
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
            return rows.enumerated().map { ($0.offset, ($0.element.title ?? "").lowercased(), $0.element) }
                .sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.2)
        }
    }
}

extension WatchList {
    /// The rows `query` keeps, in its order.
    package func rows(matching query: ListQuery) -> [WatchListRow] {
        query.sorted(rows.filter { query.keeps($0, settings: settings) })
    }
}
