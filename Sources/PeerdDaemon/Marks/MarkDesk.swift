import PeerdModel
import PeerdWire

/// Members' marks and watches (proto/CONTROL.md, "mark", "watch", "history"): each request reads
/// one snapshot and makes one write, so a `want` of an unlisted movie is its add and its mark in
/// one commit, and a request with several marks is made whole or not at all.
struct MarkDesk: Sendable {
    static let defaultHistoryPage = 50
    static let maxHistoryPage = 1_000

    let replica: ReplicaService
    let roster: MemberRoster

    /// Sets or clears this member's marks on `movie`; a `want` of an unlisted movie adds it too. A
    /// mark that says what this member's mark says already makes nothing.
    func mark(_ movie: Movie, _ marks: [Mark]) async -> ControlResponse {
        guard (1...Mark.Kind.allCases.count).contains(marks.count) else {
            return .error(WireError(.badRequest, "a mark request carries 1 to \(Mark.Kind.allCases.count) marks"))
        }
        if let reason = movie.invalidReason ?? marks.lazy.compactMap(\.invalidReason).first ?? Self.futureReason(marks)
        {
            return .error(WireError(.badRequest, reason))
        }
        let snapshot = await replica.snapshot
        let wants = marks.contains { $0.kind == .want && $0.set }
        let requests = Self.requests(movie, marks, adding: wants, in: snapshot)
        do {
            let written = try await replica.write(requests, at: Wallclock.millis())
            return .marked(Self.record(movie.id, written))
        } catch {
            return .error(ReplicaService.wireError(error))
        }
    }

    /// The requests that make `marks` on `movie`, with its add first when `adding` and it is not
    /// listed (by the name the group last gave it). A cleared rating goes before the other marks:
    /// a rating is a viewing, and once it is gone a "not seen" says nothing unless a seen mark stands.
    static func requests(_ movie: Movie, _ marks: [Mark], adding: Bool, in snapshot: Replica)
        -> [Replica.LocalRequest]
    {
        let adds = adding && snapshot.list.row(for: movie.id) == nil
        // The marks carry the movie as its add does, as they would once it is listed.
        let marked = adds ? snapshot.named(movie) : movie
        let clearsRating = { (mark: Mark) in mark.kind == .rating && !mark.set }
        let ordered = marks.filter(clearsRating) + marks.filter { !clearsRating($0) }
        return (adds ? [.add(marked)] : []) + ordered.map { .mark(marked, $0) }
    }

    /// What a mark request made, and the movie's row after it.
    static func record(_ movie: MovieID, _ written: ReplicaService.Written) -> MarkedRecord {
        var (made, added) = (0, false)
        for part in written.made {
            switch part {
            case .added:
                made += 1
                added = true
            case .marked: made += 1
            default: break
            }
        }
        let row = written.after.list.row(for: movie)
        let settings = written.after.list.settings
        return MarkedRecord(
            movieId: movie.rawValue,
            movie: row.map { MovieRecord($0, settings: settings) },
            made: made,
            added: added
        )
    }

    /// Logs one watch of `movie` by this member and the members `names` names.
    func watch(_ movie: Movie, with names: [String], on day: String?) async -> ControlResponse {
        if let day, let reason = Day.futureReason(day, today: Wallclock.today()) {
            return .error(WireError(.badRequest, reason))
        }
        let members: [PeerID]
        switch await roster.resolve(names, in: await replica.snapshot) {
        case .success(let resolved): members = resolved + [roster.me]
        case .failure(let error): return .error(error)
        }
        do {
            let written = try await replica.write(
                [.watch(movie, Watch(with: members, on: day))],
                at: Wallclock.millis()
            )
            return .marked(Self.record(movie.id, written))
        } catch {
            return .error(ReplicaService.wireError(error))
        }
    }

    /// Why one of `marks` can't be made today: a seen day after tomorrow.
    static func futureReason(_ marks: [Mark]) -> String? {
        marks.lazy.compactMap(\.on).compactMap { Day.futureReason($0, today: Wallclock.today()) }.first
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
        let snapshot = await replica.snapshot
        let entries = snapshot.historyRecords(movie: movie, since: since, before: cursor, limit: size + 1)
        let page = Array(entries.prefix(size))
        return .history(HistoryRecord(entries: page, next: entries.count > size ? page.last?.cursor : nil))
    }
}
