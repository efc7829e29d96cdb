import PeerdCatalog
import PeerdModel
import PeerdStore
import PeerdWire

/// `import` (proto/CONTROL.md): rows of a file peerctl read, resolved to movies through the catalog
/// (TMDB, or a peer that holds a token) and made into the operations a person would make.
extension ControlResponder {
    /// Rows resolved at once; TMDB's pace is ``ImportDesk/lookupsPerSecond`` whatever this is.
    static let importLookupsAtOnce = 4

    enum Resolution: Sendable {
        case movie(Movie)
        case unresolved(String)
        case failed(String)
    }

    func importRows(_ batch: ImportBatch) async -> ControlResponse {
        if let reason = batch.invalidReason { return .error(WireError(.badRequest, reason)) }
        guard let imports else { return .error(WireError(.unavailable, "this peerd takes no imports")) }
        let done: [String: ImportResult]
        do {
            done = try await imports.done(batch.id, dryRun: batch.dryRun)
        } catch {
            return .error(WireError(.storageFailed, error.description))
        }
        let key = { (row: ImportRow) in ImportDesk.key(file: row.file, line: row.line) }
        let fresh = batch.rows.filter { done[key($0)] == nil }
        let resolved = await resolve(fresh, pacedBy: imports)
        var results: [ImportResult] = []
        var made: [ImportResult] = []
        for row in batch.rows {
            if let earlier = done[key(row)] {
                results.append(Self.again(earlier, row))
                continue
            }
            let result = await apply(row, resolved[key(row)] ?? .failed("not resolved"), dryRun: batch.dryRun)
            results.append(result)
            made.append(result)
        }
        if !batch.dryRun {
            do {
                try await imports.record(batch.id, made)
            } catch {
                return .error(WireError(.storageFailed, error.description))
            }
        }
        return .imported(ImportedRecord(results: results, dryRun: batch.dryRun))
    }

    /// A row an earlier run finished: nothing more to do, or still unresolved.
    private static func again(_ earlier: ImportResult, _ row: ImportRow) -> ImportResult {
        guard earlier.outcome != .unresolved else { return earlier }
        return ImportResult(
            row,
            .already,
            movieId: earlier.movieId,
            title: earlier.title,
            year: earlier.year,
            reason: "an earlier run of this import did it"
        )
    }

    /// Each row's movie, a few rows at a time.
    private func resolve(_ rows: [ImportRow], pacedBy imports: ImportDesk) async -> [String: Resolution] {
        await withTaskGroup(of: (String, Resolution).self) { group in
            var resolved: [String: Resolution] = [:]
            var next = rows.makeIterator()
            func start() -> Bool {
                guard let row = next.next() else { return false }
                group.addTask { (ImportDesk.key(file: row.file, line: row.line), await resolve(row, imports)) }
                return true
            }
            for _ in 0..<Self.importLookupsAtOnce where !start() { break }
            while let (key, resolution) = await group.next() {
                resolved[key] = resolution
                _ = start()
            }
            return resolved
        }
    }

    /// The movie a row means: its TMDB id, its IMDb id through TMDB's `find`, or its title and year
    /// through a search that ``TitleMatch`` accepts.
    func resolve(_ row: ImportRow, _ imports: ImportDesk) async -> Resolution {
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
