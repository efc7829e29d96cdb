import PeerdCatalog
import PeerdModel
import PeerdWire

/// What an import row makes, and the lookups that resolve it.
extension ImportDesk {
    /// Times a lookup TMDB (or the holder) asked to wait for (429, 503) is tried again before its
    /// row fails.
    static let importRetries = 5

    /// Makes what `row` says of `movie`, each operation only if it changes something (a dry run
    /// only says what it would make).
    func apply(_ row: ImportRow, _ resolution: Resolution, dryRun: Bool) async -> ImportResult {
        let movie: Movie
        switch resolution {
        case .unresolved(let reason): return ImportResult(row, .unresolved, reason: reason)
        case .failed(let reason): return ImportResult(row, .failed, reason: reason)
        case .movie(let found): movie = found
        }
        let result = { (outcome: ImportResult.Outcome, reason: String?) in
            ImportResult(row, outcome, movieId: movie.id.rawValue, title: movie.title, year: movie.year, reason: reason)
        }
        let rowMarks = Self.marks(of: row)
        if let reason = rowMarks.lazy.compactMap(\.invalidReason).first ?? MarkDesk.futureReason(rowMarks)
            ?? movie.invalidReason
        {
            return result(.unresolved, "the row can't be stored: \(reason)")
        }
        let snapshot = await replica.snapshot
        let marks = rowMarks.filter { Self.changes($0, on: movie.id, in: snapshot) }
        let listed = snapshot.list.row(for: movie.id) != nil
        let adds = (row.list || row.want) && !listed
        if adds, let check = await ceilings?.ceilingCheck(of: movie, in: snapshot, allowUnrated: false) {
            // TMDB could not be asked now: the row is tried again by the next run.
            return result(check.passing ? .failed : .refused, check.refusal)
        }
        if dryRun { return result(adds ? .added : marks.isEmpty ? .already : .marked, nil) }
        let requests = MarkDesk.requests(movie, marks, adding: adds, in: snapshot)
        guard !requests.isEmpty else { return result(.already, nil) }
        do {
            let record = MarkDesk.record(movie.id, try await replica.write(requests, at: Wallclock.millis()))
            return result(record.added ? .added : record.made > 0 ? .marked : .already, nil)
        } catch {
            return result(.failed, ReplicaService.wireError(error).message)
        }
    }

    /// The marks a row says this member has.
    static func marks(of row: ImportRow) -> [Mark] {
        var marks: [Mark] = []
        if row.want { marks.append(Mark(kind: .want)) }
        if row.seen || row.seenOn != nil { marks.append(Mark(kind: .seen, on: row.seenOn)) }
        if let rating = row.rating { marks.append(Mark(kind: .rating, rating: rating)) }
        if row.veto { marks.append(Mark(kind: .veto)) }
        return marks
    }

    /// Whether `mark` says something this member's marks don't. A seen mark only moves forward: a
    /// dated one replaces an undated one or an older day, an undated one never replaces a seen
    /// mark, so files that overlap (Letterboxd's watched and diary) agree in any order.
    private static func changes(_ mark: Mark, on movie: MovieID, in snapshot: Replica) -> Bool {
        let current = snapshot.list.marks.mark(mark.kind, of: ActingMember.current?.id ?? snapshot.id, on: movie)
        guard mark.kind == .seen, let current, current.set else { return current != mark }
        guard let day = mark.on else { return false }
        return current.on.map { $0 < day } ?? true
    }

    /// What `ask` finds (search results, or what `find` found), at the imports' pace, through this
    /// daemon's token or a peer's; a lookup TMDB asked to wait for is tried again after the wait.
    func importLookup(_ ask: CatalogQuery.Ask, _ imports: ImportJournals) async -> Result<
        [SearchResultRecord], WireError
    > {
        var attempt = 0
        while true {
            await imports.turn(throughPeer: catalog == nil)
            var wait: Duration?
            let outcome: Result<CatalogAnswer.Found, WireError>
            if let catalog {
                do {
                    outcome = .success(try await catalog.importLookup(ask))
                } catch {
                    wait = (error as? CatalogError)?.upstreamFailure?.retryAfter
                    outcome = .failure(WireError(.upstreamFailed, "\(error)"))
                }
            } else if let asker {
                outcome = await asker.ask(ask)
                // A holder that is busy with others' queries: wait a moment and ask again.
                if case .failure(let error) = outcome, error.code == .rateLimited { wait = .seconds(1) }
            } else {
                return .failure(WireError(.unavailable, "can't ask TMDB: \(CatalogDesk.noToken)"))
            }
            switch outcome {
            case .success(.search(let page)), .success(.movies(let page)): return .success(page.results)
            case .success: return .failure(WireError(.internal, "\(ask) was answered with something else"))
            case .failure(let error):
                guard let wait, attempt < Self.importRetries else { return .failure(error) }
                attempt += 1
                await imports.hold(for: min(wait, .seconds(60)))
            }
        }
    }
}
