import PeerdCatalog
import PeerdModel
import PeerdWire

/// The list itself (proto/CONTROL.md, "add", "remove", "list"): movies added and removed, and the
/// whole list or what a query keeps (streaming, members' marks), in the list's order or another.
struct ListDesk: Sendable {
    static let maxPageSize = 10_000

    let replica: ReplicaService
    let roster: MemberRoster
    /// TMDB, when this daemon holds a token: an add asks it first (``add(_:)``).
    let catalog: (any CatalogAccess)?
    /// Where a list's ceiling is checked (proto/PEER.md, "Ceilings"): TMDB, or a holder's answer.
    var ceilings: CatalogDesk?

    static let noServices =
        "the group has no streaming services yet; name them, e.g. peerctl services --region DE netflix mubi"

    /// A page of the list. In the list's own order it pages by the rows' cursors; in another,
    /// `after` is the number of rows already shown (`next` says it, `+N`), since a row's place
    /// then moves with the marks.
    func list(limit: Int?, after: String?, streaming: Bool, filter: ListFilter) async -> ControlResponse {
        if let limit, !(1...Self.maxPageSize).contains(limit) {
            return .error(WireError(.badRequest, "limit must be between 1 and \(Self.maxPageSize)"))
        }
        if let unknown = filter.unknownSort {
            let sorts = ListQuery.Sort.allCases.map(\.rawValue).joined(separator: ", ")
            return .error(WireError(.badRequest, "this peerd doesn't sort by '\(unknown)'; it sorts by \(sorts)"))
        }
        let snapshot = await replica.snapshot
        if streaming, snapshot.list.settings?.services.isEmpty ?? true {
            return .error(WireError(.badRequest, Self.noServices))
        }
        let query: ListQuery
        switch await listQuery(streaming: streaming, filter: filter, in: snapshot) {
        case .success(let made): query = made
        case .failure(let error): return .error(error)
        }
        let size = limit ?? Self.maxPageSize
        guard query.sort == .added else {
            guard let start = Self.position(after) else { return .error(Self.notACursor(after ?? "")) }
            let page = snapshot.sortedRecords(matching: query, from: start, limit: size)
            return .list(movies: page.records, total: page.total, next: page.next)
        }
        var cursor: OrderKey?
        if let after {
            guard let key = OrderKey(cursor: after) else {
                return .error(WireError(.badRequest, "'\(after)' is not a cursor; use the cursor of a listed movie"))
            }
            cursor = key
        }
        let page = snapshot.records(matching: query, after: cursor, limit: size)
        return .list(movies: page.records, total: page.total, next: page.next)
    }

    /// `+N` as N; 0 when absent; nil when it is not that.
    private static func position(_ after: String?) -> Int? {
        guard let after else { return 0 }
        let digits = after.utf8.dropFirst()
        guard after.hasPrefix("+"), !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        return Int(Substring(digits))
    }

    private static func notACursor(_ after: String) -> WireError {
        WireError(.badRequest, "'\(after)' is not a cursor of this list; use the `next` of its last page")
    }

    /// The list query `filter` names, its members resolved.
    func listQuery(streaming: Bool, filter: ListFilter, in snapshot: Replica) async -> Result<ListQuery, WireError> {
        var query = ListQuery(streaming: streaming, sort: filter.sort)
        if filter.unseen {
            switch await roster.resolve(filter.by ?? [], in: snapshot) {
            case .success(let members): query.unseenBy = Array(Set(members)).sorted()
            case .failure(let error): return .failure(error)
            }
        } else if filter.by != nil {
            return .failure(WireError(.badRequest, "by names whose seen marks count; it goes with unseen"))
        }
        if let wantedBy = filter.wantedBy {
            switch await roster.resolve(wantedBy, in: snapshot) {
            case .success(let members) where !members.isEmpty: query.wantedBy = Array(Set(members)).sorted()
            case .success: return .failure(WireError(.badRequest, "wantedBy names at least one member"))
            case .failure(let error): return .failure(error)
            }
        }
        return .success(query)
    }
}
