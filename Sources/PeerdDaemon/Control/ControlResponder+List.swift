import PeerdModel
import PeerdWire

/// `list`: the whole list or what a query keeps (streaming, members' marks), in the list's order
/// or another (proto/CONTROL.md, "list").
extension ControlResponder {
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
        if streaming, (await replica.settings)?.services.isEmpty ?? true {
            return .error(WireError(.badRequest, Self.noServices))
        }
        let query: ListQuery
        switch await listQuery(streaming: streaming, filter: filter) {
        case .success(let made): query = made
        case .failure(let error): return .error(error)
        }
        let size = limit ?? Self.maxPageSize
        guard query.sort == .added else {
            guard let start = Self.position(after) else { return .error(Self.notACursor(after ?? "")) }
            let page = await replica.sortedRecords(matching: query, from: start, limit: size)
            return .list(movies: page.records, total: page.total, next: page.next)
        }
        var cursor: OrderKey?
        if let after {
            guard let key = OrderKey(cursor: after) else {
                return .error(WireError(.badRequest, "'\(after)' is not a cursor; use the cursor of a listed movie"))
            }
            cursor = key
        }
        let page = await replica.records(matching: query, after: cursor, limit: size)
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
}
