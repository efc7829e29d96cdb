import Logging
import PeerdLoops
package import PeerdModel

extension CatalogService {
    /// What TMDB says of `movie` before an add writes it (``AddCheck``): the cached details if any,
    /// else one request that the add waits for at most ``FetchPolicy/addCheckWait``; none while
    /// TMDB asked to wait or looks down, and none without a slot of peerd's own cap within 500 ms.
    /// Details found are cached, so the describe that follows the add (due at once: this peer
    /// added it) asks TMDB nothing more.
    package func checkBeforeAdd(_ movie: MovieID) async -> AddCheck {
        let wait = schedule.policy.addCheckWait
        if let cached = await cache.details(of: movie, language: client.settings.language) { return .found(cached) }
        guard !schedule.isHeld(now: clock.now) else { return .unknown("TMDB asked to wait, or looks down") }
        let region = await replica.groupRegion()
        let client = self.client
        let outcome = await Self.first(within: wait) { () async -> Result<FetchedMovie, CatalogError> in
            do throws(CatalogError) {
                return .success(try await client.fetchMovie(movie, region: region, for: .addCheck))
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let fetched)?:
            schedule.answered(now: clock.now)
            await save(fetched, of: movie)
        case .failure(let error)?:
            noteFailure(error)
        case nil: break
        }
        let check = AddCheck(outcome.map { $0.map(\.details) }, wait: wait)
        if case .unknown(let reason) = check {
            logger.notice("adding a movie unchecked", metadata: ["movie": "\(movie)", "cause": "\(reason)"])
        }
        return check
    }

    /// Tells the schedule of a failed request made outside it: TMDB answered, or asked to wait, or looks down.
    func noteFailure(_ error: CatalogError) {
        guard let failure = error.upstreamFailure else { return }
        if failure.isPermanent {
            schedule.answered(now: clock.now)
        } else {
            schedule.held(by: failure, now: clock.now)
        }
    }

    /// `body`'s value, or nil once `limit` has passed (`body` is then cancelled).
    static func first<Value: Sendable>(
        within limit: Duration,
        _ body: @Sendable @escaping () async -> Value
    ) async -> Value? {
        await withTaskGroup(of: Value?.self) { group in
            group.addTask(operation: body)
            group.addTask {
                try? await LoopClock.shared.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            return await group.next() ?? nil
        }
    }
}
