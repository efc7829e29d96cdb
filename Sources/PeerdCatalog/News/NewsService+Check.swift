import Logging
import PeerdModel

extension NewsService {
    /// Asks TMDB where `movie` streams in the group's region, compares it with what the group
    /// knows at that moment (news another holder reported meanwhile included), reports what
    /// changed for the group, and only then records the check: a restart before the record makes
    /// the check again, which then finds the news already reported.
    func check(_ movie: MovieID) async {
        guard let settings = await replica.settings() else {
            return schedule.failed(movie, at: Wallclock.millis())
        }
        let answer: (providers: WatchProviders, read: Int64)
        do {
            answer = try await client.watchProviders(of: movie, region: settings.region)
        } catch {
            guard error.upstreamFailure != .cancelled else { return }  // peerd is stopping
            logger.notice("could not check a movie for news", metadata: ["movie": "\(movie)", "cause": "\(error)"])
            return schedule.failed(movie, at: Wallclock.millis())
        }
        let known = await replica.knownProviders(of: movie, in: settings.region)
        // No details of the region yet: its describe brings what the next check compares with.
        if let known {
            let changes = ProviderNews.changes(from: known, to: answer.providers, services: settings.services)
            let news = ProviderNews(read: answer.read, providers: answer.providers, changes: changes)
            if !changes.isEmpty, await !report(movie, news) { return schedule.failed(movie, at: Wallclock.millis()) }
        }
        schedule.checked(movie, at: Wallclock.millis())
        do {
            try await checks.save(schedule.checked)
        } catch {
            logger.warning("could not record the news checks", metadata: ["cause": "\(error)"])
        }
    }

    /// Appends the news; whether it is durable.
    private func report(_ movie: MovieID, _ news: ProviderNews) async -> Bool {
        do {
            try await replica.report(movie, news)
        } catch {
            logger.warning("could not report news", metadata: ["movie": "\(movie)", "cause": "\(error)"])
            return false
        }
        let changes = news.changes.map { "\($0.change.rawValue) \($0.service.name)" }.joined(separator: ", ")
        logger.info("reported news", metadata: ["movie": "\(movie)", "changes": "\(changes)"])
        return true
    }
}
