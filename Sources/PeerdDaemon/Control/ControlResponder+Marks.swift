import PeerdModel
import PeerdWire

/// Members' marks and watches, the list by them, and the signed log in words (proto/CONTROL.md,
/// "mark", "watch", "history" and "list").
extension ControlResponder {
    static let defaultHistoryPage = 50
    static let maxHistoryPage = 1_000

    /// Sets or clears this member's marks on `movie`, in order; a `want` of an unlisted movie adds
    /// it first. A mark that says what this member's mark says already makes nothing.
    func mark(_ movie: Movie, _ marks: [Mark]) async -> ControlResponse {
        guard (1...Mark.Kind.allCases.count).contains(marks.count) else {
            return .error(WireError(.badRequest, "a mark request carries 1 to \(Mark.Kind.allCases.count) marks"))
        }
        // Every mark is checked before any is made: a request is made whole or not at all.
        if let reason = movie.invalidReason ?? marks.lazy.compactMap(\.invalidReason).first ?? Self.futureReason(marks)
        {
            return .error(WireError(.badRequest, reason))
        }
        var made = 0
        var added = false
        do {
            let now = Wallclock.millis()
            if marks.contains(where: { $0.kind == .want && $0.set }), await replica.row(for: movie.id) == nil {
                if case .added = try await replica.submit(.add(await replica.named(movie)), at: now) { added = true }
                made += added ? 1 : 0
            }
            // A cleared rating goes first: a rating is a viewing, and once it is gone a "not seen"
            // in the same request makes nothing unless a seen mark of its own stands.
            let clearsRating = { (mark: Mark) in mark.kind == .rating && !mark.set }
            for mark in marks.filter(clearsRating) + marks.filter({ !clearsRating($0) }) {
                if case .marked = try await replica.submit(.mark(movie, mark), at: now) { made += 1 }
            }
        } catch {
            return .error(Self.wireError(error))
        }
        return await marked(movie.id, made: made, added: added)
    }

    /// Logs one watch of `movie` by this member and the members `names` names.
    func watch(_ movie: Movie, with names: [String], on day: String?) async -> ControlResponse {
        if let day, let reason = Day.futureReason(day, today: Wallclock.today()) {
            return .error(WireError(.badRequest, reason))
        }
        let members: [PeerID]
        switch await resolve(names) {
        case .success(let resolved): members = resolved + [info.identity]
        case .failure(let error): return .error(error)
        }
        do {
            _ = try await replica.submit(.watch(movie, Watch(with: members, on: day)), at: Wallclock.millis())
        } catch {
            return .error(Self.wireError(error))
        }
        return await marked(movie.id, made: 1, added: false)
    }

    /// Why one of `marks` can't be made today: a seen day after tomorrow.
    static func futureReason(_ marks: [Mark]) -> String? {
        marks.lazy.compactMap(\.on).compactMap { Day.futureReason($0, today: Wallclock.today()) }.first
    }

    private func marked(_ movie: MovieID, made: Int, added: Bool) async -> ControlResponse {
        let row = await replica.row(for: movie)
        let settings = await replica.settings
        let record = MarkedRecord(
            movieId: movie.rawValue,
            movie: row.map { MovieRecord($0, settings: settings) },
            made: made,
            added: added
        )
        return .marked(record)
    }

    /// The list query `filter` names, its members resolved.
    func listQuery(streaming: Bool, filter: ListFilter) async -> Result<ListQuery, WireError> {
        var query = ListQuery(streaming: streaming, sort: filter.sort)
        if filter.unseen {
            switch await resolve(filter.by ?? []) {
            case .success(let members): query.unseenBy = Array(Set(members)).sorted()
            case .failure(let error): return .failure(error)
            }
        } else if filter.by != nil {
            return .failure(WireError(.badRequest, "by names whose seen marks count; it goes with unseen"))
        }
        if let wantedBy = filter.wantedBy {
            switch await resolve(wantedBy) {
            case .success(let members) where !members.isEmpty: query.wantedBy = Array(Set(members)).sorted()
            case .success: return .failure(WireError(.badRequest, "wantedBy names at least one member"))
            case .failure(let error): return .failure(error)
            }
        }
        return .success(query)
    }

    /// Members by name, id, unique id prefix or `me` (``MemberNames/resolve(_:me:)``): those whose
    /// operations name them, and the paired ones by the names they gave.
    func resolve(_ names: [String]) async -> Result<[PeerID], WireError> {
        var known = await replica.memberNames
        known.introduce(info.identity, as: info.name)
        for member in await trust.members() { known.introduce(member.peer, as: member.name ?? member.peer.short) }
        var members: [PeerID] = []
        for name in names {
            switch known.resolve(name, me: info.identity) {
            case .success(let member): members.append(member)
            case .failure(let refusal): return .failure(WireError(.badRequest, refusal.message))
            }
        }
        return .success(members)
    }

    /// A page of the signed log, newest first, in words.
    func history(movie: MovieID?, since: Int64?, limit: Int?, before: String?) async -> ControlResponse {
        let size = limit ?? Self.defaultHistoryPage
        guard (1...Self.maxHistoryPage).contains(size) else {
            return .error(WireError(.badRequest, "limit must be between 1 and \(Self.maxHistoryPage)"))
        }
        var cursor: OrderKey?
        if let before {
            guard let key = OrderKey(cursor: before) else {
                return .error(WireError(.badRequest, "'\(before)' is not a cursor; use the `next` of a history page"))
            }
            cursor = key
        }
        let entries = await replica.history(movie: movie, since: since, before: cursor, limit: size + 1)
        let page = Array(entries.prefix(size))
        return .history(HistoryRecord(entries: page, next: entries.count > size ? page.last?.cursor : nil))
    }
}
