import PeerdCatalog
import PeerdModel
import PeerdStore
import PeerdWire

/// `import` (proto/CONTROL.md): rows of a file peerctl read, resolved to movies through the catalog
/// (TMDB, or a peer that holds a token) and made into the operations a person would make, each row
/// one write (its add with its marks).
struct ImportDesk: Sendable {
    let replica: ReplicaService
    /// TMDB, when this daemon holds a token.
    let catalog: (any CatalogAccess)?
    /// Asks a peer that holds a token, when this daemon holds none.
    var asker: CatalogAsker? = nil
    /// Each import's journal, and the pace of lookups.
    let journals: ImportJournals
    /// Checks an add against the ceiling of the list it writes, as `add` does (`--allow-unrated` is
    /// `add`'s alone).
    var ceilings: ListDesk? = nil

    /// Rows resolved at once; TMDB's pace is ``ImportJournals/lookupsPerSecond`` whatever this is.
    static let importLookupsAtOnce = 4

    enum Resolution: Sendable {
        case movie(Movie)
        case unresolved(String)
        case failed(String)
    }

    /// The journal of `batch`'s file for the member the import acts for and the list it writes
    /// (``ActingList``): a profile importing the file the machine's member imported has rows of its
    /// own to make, and so has the file imported into another list.
    static func journal(of batch: ImportBatch) -> String {
        var name = ActingMember.current.map { "\(batch.id)-\($0.id.rawValue)" } ?? batch.id
        if let list = ActingList.current?.listID { name += "-list-\(list.rawValue)" }
        return name
    }

    func importRows(_ batch: ImportBatch) async -> ControlResponse {
        if let reason = batch.invalidReason { return .error(WireError(.badRequest, reason)) }
        let imports = journals
        let done: [String: ImportResult]
        do {
            done = try await imports.done(Self.journal(of: batch), dryRun: batch.dryRun)
        } catch {
            return .error(WireError(.storageFailed, error.description))
        }
        let key = { (row: ImportRow) in ImportJournals.key(file: row.file, line: row.line) }
        let fresh = batch.rows.filter { done[key($0)] == nil }
        let made: [String: ImportResult]
        do {
            made = try await resolveAndApply(fresh, of: batch, pacedBy: imports)
        } catch {
            return .error(WireError(.storageFailed, error.description))
        }
        let results = batch.rows.map { row in done[key(row)].map { Self.again($0, row) } ?? made[key(row)]! }
        return .imported(ImportedRecord(results: results, dryRun: batch.dryRun))
    }

    /// Resolves `rows` a few at a time and applies each in the file's order as soon as it and the rows
    /// before it are resolved, recording it in the journal at once (not on a dry run): a row is
    /// looked up again only if peerd stopped while it was one of the ``importLookupsAtOnce`` in flight.
    private func resolveAndApply(
        _ rows: [ImportRow],
        of batch: ImportBatch,
        pacedBy imports: ImportJournals
    ) async throws(StoreError) -> [String: ImportResult] {
        let key = { (row: ImportRow) in ImportJournals.key(file: row.file, line: row.line) }
        var made: [String: ImportResult] = [:]
        var journalError: StoreError?
        await withTaskGroup(of: (Int, Resolution).self) { group in
            var resolved: [Int: Resolution] = [:]
            var (started, applied) = (0, 0)
            func start() {
                guard started < rows.count, started < applied + Self.importLookupsAtOnce else { return }
                let (index, row) = (started, rows[started])
                group.addTask { (index, await resolve(row, imports)) }
                started += 1
            }
            for _ in 0..<Self.importLookupsAtOnce { start() }
            while journalError == nil, let (index, resolution) = await group.next() {
                resolved[index] = resolution
                while journalError == nil, let next = resolved.removeValue(forKey: applied) {
                    let row = rows[applied]
                    let result = await apply(row, next, dryRun: batch.dryRun)
                    do throws(StoreError) {
                        if !batch.dryRun { try await imports.record(Self.journal(of: batch), [result]) }
                    } catch {
                        journalError = error
                    }
                    made[key(row)] = result
                    applied += 1
                    start()
                }
            }
            group.cancelAll()
        }
        if let journalError { throw journalError }
        return made
    }

    /// A row an earlier run finished: nothing more to do, or still unresolved (or refused).
    private static func again(_ earlier: ImportResult, _ row: ImportRow) -> ImportResult {
        guard earlier.outcome != .unresolved, earlier.outcome != .refused else { return earlier }
        return ImportResult(
            row,
            .already,
            movieId: earlier.movieId,
            title: earlier.title,
            year: earlier.year,
            reason: "an earlier run of this import did it"
        )
    }

    /// The movie a row means: its TMDB id, its IMDb id through TMDB's `find`, or its title and year
    /// through a search that ``TitleMatch`` accepts.
    func resolve(_ row: ImportRow, _ imports: ImportJournals) async -> Resolution {
        let title = row.title.map { String($0.prefix(Movie.maxTitleLength)) }.flatMap { $0.isEmpty ? nil : $0 }
        let year = row.year.flatMap { (1870...9999).contains($0) ? $0 : nil }
        if let tmdb = row.tmdb {
            guard let id = MovieID(tmdb) else { return .unresolved("\(tmdb) is not a TMDB movie id") }
            return .movie(Movie(id: id, title: title, year: year))
        }
        if let imdb = row.imdb {
            guard CatalogQuery.Ask.isIMDbID(imdb) else { return .unresolved("'\(imdb.prefix(20))' is not an IMDb id") }
            switch await importLookup(.find(imdb: imdb), imports) {
            case .success(let results) where results.count == 1: return .movie(Self.movie(results[0]))
            case .success(let results) where results.isEmpty: return .unresolved("TMDB has no movie for IMDb's \(imdb)")
            case .success(let results): return .unresolved("TMDB has \(results.count) movies for IMDb's \(imdb)")
            case .failure(let error): return .failed(error.message)
            }
        }
        guard let title else { return .unresolved("the row names no movie: no TMDB id, IMDb id or title") }
        switch await importLookup(.search(text: String(title.prefix(200)), year: year, page: 1), imports) {
        case .success(let results):
            switch TitleMatch.choose(results, title: title, year: year) {
            case .movie(let found): return .movie(Self.movie(found))
            case .unresolved(let reason): return .unresolved(reason)
            }
        case .failure(let error): return .failed(error.message)
        }
    }

    private static func movie(_ found: SearchResultRecord) -> Movie {
        Movie(id: MovieID(found.movieId)!, title: String(found.title.prefix(Movie.maxTitleLength)), year: found.year)
    }
}
