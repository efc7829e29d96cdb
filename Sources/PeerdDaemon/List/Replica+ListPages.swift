import PeerdModel
import PeerdWire

/// Pages of list records, made from a snapshot so that only the rows a page shows are made, and
/// no more of them than one control frame holds.
extension Replica {
    /// The records `query` keeps after `cursor` in the list's order: at most `limit`, and no more
    /// than a frame holds; how many it keeps in all; and the cursor of the next page, if any.
    func records(
        matching query: ListQuery,
        after cursor: OrderKey?,
        limit: Int
    ) -> (records: [MovieRecord], total: Int, next: String?) {
        var page = FramePage(settings: list.settings)
        let (_, total, more) = list.page(matching: query, after: cursor, limit: limit) { page.take($0) }
        return (page.records, total, more ? page.records.last?.cursor : nil)
    }

    /// The records `query` keeps in its own order, from the `start`-th on, at most `limit` and no
    /// more than a frame holds; how many it keeps in all; and `+N` for the next page, if any.
    func sortedRecords(
        matching query: ListQuery,
        from start: Int,
        limit: Int
    ) -> (records: [MovieRecord], total: Int, next: String?) {
        let rows = list.rows(matching: query)
        var page = FramePage(settings: list.settings)
        for row in rows.dropFirst(start).prefix(limit) where !page.take(row) { break }
        let end = min(start, rows.count) + page.records.count
        return (page.records, rows.count, end < rows.count ? "+\(end)" : nil)
    }
}

/// The records of one page, as many as fit a control frame: a page may be shorter than asked
/// (clients follow `next`), but a response never exceeds the frame limit. Each record is counted
/// at its exact size (``MovieRecord/jsonSize``) and a comma; the rest of the response (`movies`,
/// `next`, `total`, `type`) takes well under `envelope` bytes.
struct FramePage {
    static let envelope = 1_024

    let settings: GroupSettings?
    private(set) var records: [MovieRecord] = []
    private var room = Frame.maxFrameLength - Self.envelope

    init(settings: GroupSettings?) {
        self.settings = settings
    }

    /// Takes `row` if its record fits (the first always does); false once it does not.
    mutating func take(_ row: WatchListRow) -> Bool {
        let record = MovieRecord(row, settings: settings)
        room -= record.jsonSize + 1
        guard room >= 0 || records.isEmpty else { return false }
        records.append(record)
        return true
    }
}
