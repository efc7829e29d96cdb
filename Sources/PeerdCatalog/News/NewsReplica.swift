package import PeerdModel

/// What the news checks need of the group (the daemon implements it over its ReplicaService and
/// its peer directory).
package protocol NewsReplica: Sendable {
    /// The group's region and services; nil until a member set them (`peerctl services`).
    func settings() async -> GroupSettings?
    /// The movies to watch (``WatchList/newsWatched``).
    func watched() async -> [MovieID]
    /// What the group knows now of where `movie` streams in `region` (``WatchList/knownProviders(of:in:)``).
    func knownProviders(of movie: MovieID, in region: String) async -> WatchProviders?
    /// The other token holders connected now that check for news (their hello says `news`).
    func holders() async -> [PeerID]
    /// A tick whenever the list, its marks or its news change.
    func changes() async -> AsyncStream<Void>
    /// Appends a news operation (signed, durable, replicated) about `movie`.
    func report(_ movie: MovieID, _ news: ProviderNews) async throws
}
