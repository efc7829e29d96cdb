import PeerdCatalog
import PeerdModel
import PeerdWire

/// A list's ceiling (proto/PEER.md, "Ceilings"), for the desk that makes an add.
extension CatalogDesk {
    /// Whether `movie` may join a list whose ceiling is `ceiling`, by its certification in the group's region
    /// (else the TMDB language's): through this daemon's token, or without one, by a `certification` query to
    /// a peer that holds one. Nobody to ask, or no answer, is `unknown`: refused unless `--allow-unrated`.
    func checkCeiling(_ movie: MovieID, ceiling: String) async -> CeilingCheck {
        let region = await replica.groupSnapshot.list.settings?.region ?? TMDBResponses.region(of: tmdbLanguage)
        if let catalog { return await catalog.checkCeiling(movie, ceiling: ceiling, region: region) }
        let answer =
            if let asker {
                await asker.ask(.certification(movie, region: region))
            } else {
                Result<CatalogAnswer.Found, WireError>.failure(WireError(.unavailable, Self.noToken))
            }
        switch answer {
        case .success(.certification(let record)) where record.region == region:
            return CeilingCheck(record, ceiling: ceiling)
        case .success(let other):
            let reason = "a token holder answered a certification query with \(other)"
            return CeilingCheck(verdict: .unknown(reason), region: region, ceiling: ceiling)
        case .failure(let error):
            return CeilingCheck(verdict: .unknown(error.message), region: region, ceiling: ceiling)
        }
    }

    /// `page` without the movies that `ceiling` leaves out (above it, or with no certification known),
    /// and how many that was: search results offered for a list with a ceiling. Each movie is checked
    /// as an add checks it, all at once; the certifications are cached for the adds that follow.
    func underCeiling(_ page: SearchResultsRecord, ceiling: String) async -> SearchResultsRecord {
        let allowed = await withTaskGroup(of: Int?.self) { group in
            for result in page.results {
                group.addTask {
                    guard let movie = MovieID(result.movieId) else { return nil }
                    return await checkCeiling(movie, ceiling: ceiling).verdict == .allowed ? result.movieId : nil
                }
            }
            var allowed: Set<Int> = []
            for await movie in group { if let movie { allowed.insert(movie) } }
            return allowed
        }
        var kept = page
        kept.results = page.results.filter { allowed.contains($0.movieId) }
        kept.leftOut = page.results.count - kept.results.count
        return kept
    }
}
