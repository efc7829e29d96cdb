import Logging
import PeerdLoops
import PeerdModel

extension CatalogService {
    /// Gets `movie`'s details with where to watch it in the group's region (from the cache unless a
    /// refresh asked for TMDB's, or the cached ones looked in another region), appends the describe,
    /// and tells the schedule how it went.
    func describe(_ movie: MovieID) async {
        let attempt = schedule.failures(of: movie) + 1
        let groupRegion = await replica.groupRegion()
        let details: MovieDetails
        let source: String
        if !schedule.isRefresh(movie), let cached = await cache.details(of: movie, language: client.settings.language),
            groupRegion == nil || cached.providers?.region == groupRegion
        {
            (details, source) = (cached, "cache")
        } else {
            let fetched: FetchedMovie
            do {
                fetched = try await client.fetchMovie(movie, region: groupRegion)
                schedule.answered(now: clock.now)
            } catch {
                return failed(movie, error, attempt: attempt)
            }
            (details, source) = (fetched.details, "TMDB")
            await save(fetched, of: movie)
        }
        await reconcileIfChanged()
        guard schedule.isWanted(movie) else { return }
        do {
            try await replica.describe(movie, details)
        } catch {
            return failed(movie, .describeFailed(movie, reason: "\(error)"), attempt: attempt)
        }
        schedule.succeeded(movie)
        logger.info(
            "described a movie",
            metadata: ["movie": "\(movie)", "title": "\(details.title)", "attempts": "\(attempt)", "from": "\(source)"]
        )
    }

    private func failed(_ movie: MovieID, _ error: CatalogError, attempt: Int) {
        guard error.upstreamFailure != .cancelled else { return }  // peerd is stopping
        schedule.failed(movie, error, now: clock.now, jitter: Double.random(in: 0..<1))
        logger.notice(
            "could not describe a movie",
            metadata: [
                "movie": "\(movie)", "attempts": "\(attempt)", "cause": "\(error)",
                "pending": "\(schedule.pendingReason(movie, now: clock.now) ?? "no longer")",
            ]
        )
    }

    /// Caches what TMDB answered of `movie`: its details and its certifications.
    func save(_ fetched: FetchedMovie, of movie: MovieID) async {
        do {
            try await cache.store(fetched.details, certifications: fetched.certifications, of: movie)
        } catch {
            logger.warning("could not cache fetched details", metadata: ["movie": "\(movie)", "cause": "\(error)"])
        }
    }

    /// The poster base: from the cache, else from TMDB once (then cached); TMDB's default until then.
    func loadImageBase() async {
        if let base = await cache.imageBase() {
            client.useImageBase(base)
            return
        }
        do {
            try await cache.storeImageBase(try await client.fetchImageBase())
        } catch {
            guard error.upstreamFailure != .cancelled else { return }
            logger.notice("using the default poster base", metadata: ["cause": "\(error)"])
        }
    }
}
