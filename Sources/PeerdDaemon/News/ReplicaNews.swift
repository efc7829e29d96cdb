import PeerdCatalog
import PeerdModel

/// The news checks' view of the group: its list's settings, wanted movies and news, and the token
/// holders connected now; a news operation is appended like any local one (signed, durable, replicated).
struct ReplicaNews: NewsReplica {
    let replica: ReplicaService
    let directory: PeerDirectory

    func settings() async -> GroupSettings? {
        await replica.snapshot.list.settings
    }

    func watched() async -> [MovieID] {
        await replica.snapshot.list.newsWatched
    }

    func knownProviders(of movie: MovieID, in region: String) async -> WatchProviders? {
        await replica.snapshot.list.knownProviders(of: movie, in: region)
    }

    func holders() async -> [PeerID] {
        await directory.newsHolders()
    }

    func changes() async -> AsyncStream<Void> {
        await replica.listTicks()
    }

    func report(_ movie: MovieID, _ news: ProviderNews) async throws {
        _ = try await replica.submit(.news(movie, news), at: Wallclock.millis())
    }
}
