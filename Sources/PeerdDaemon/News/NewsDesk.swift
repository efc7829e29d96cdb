import PeerdModel
import PeerdWire

/// The news of wanted movies (proto/CONTROL.md, "news"): one home for the control socket's
/// `news`, its follow stream and the page's News view. Reports are the group's list's; where each
/// member last looked is this machine's (``NewsLooks``).
struct NewsDesk: Sendable {
    let replica: ReplicaService
    let roster: MemberRoster
    let looks: NewsLooks

    static let defaultLimit = 50
    static let maxLimit = 500

    /// `news`: the newest reports; when `looked`, the acting member has now seen them all.
    func news(_ request: NewsRequest) async -> ControlResponse {
        let limit = request.limit ?? Self.defaultLimit
        guard (0...Self.maxLimit).contains(limit) else {
            return .error(WireError(.badRequest, "limit must be between 0 and \(Self.maxLimit)"))
        }
        let snapshot = await replica.snapshot
        let member = roster.me
        let lastLook = await looks.lastLook(of: member)
        let record = snapshot.newsRecord(limit: limit, looked: lastLook)
        if request.looked == true, let newest = snapshot.list.news.reports.last?.orderKey {
            do {
                try await looks.look(member, at: newest)
            } catch {
                return .error(WireError(.internal, "could not record that the news was read: \(error)"))
            }
        }
        return .news(record)
    }

    /// `news` with `follow`: the answer, then each later batch of reports, as it is committed.
    /// Every report held when it answered counts as told, on its page or not.
    func follow(_ request: NewsRequest) async -> AsyncStream<ControlResponse> {
        let ticks = await replica.listTicks()
        let told = Set(await replica.snapshot.list.news.reports.map(\.id))
        let first = await news(request)
        let member = roster.me
        let (stream, continuation) = AsyncStream.makeStream(of: ControlResponse.self)
        continuation.yield(first)
        guard case .news(let record) = first else {
            continuation.finish()  // a refused request (its `limit`) streams nothing more
            return stream
        }
        let task = Task { [replica, looks] in
            var told = told.union(record.items.map(\.operation))
            for await _ in ticks {
                let snapshot = await replica.snapshot
                let fresh = snapshot.list.news.reports.filter { !told.contains($0.id) }
                guard !fresh.isEmpty else { continue }
                told.formUnion(fresh.map(\.id))
                let looked = await looks.lastLook(of: member)
                var record = snapshot.newsRecord(limit: 0, looked: looked)
                record.items = fresh.reversed().map { snapshot.newsItem($0, looked: looked) }
                continuation.yield(.news(record))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
