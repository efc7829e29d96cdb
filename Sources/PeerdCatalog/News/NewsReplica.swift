package import PeerdModel

/// What the news checks need of the group (the daemon implements it over its ReplicaService and
/// its peer directory).
package protocol NewsReplica: Sendable {
    /// The group's settings and the movies to watch (``WatchList/newsWatched``); nil settings
    /// until a member set the group's region (`peerctl services`).
    func watched() async -> (settings: GroupSettings?, movies: [MovieID])
    /// What the group knows now of where `movie` streams in `region` (``WatchList/knownProviders(of:in:)``).
    func knownProviders(of movie: MovieID, in region: String) async -> WatchProviders?
    /// The other token holders connected now that check for news (their hello says `news`).
    func holders() async -> [PeerID]
    /// A tick whenever the list, its marks or its news change.
    func changes() async -> AsyncStream<Void>
    /// Appends a news operation (signed, durable, replicated) about `movie`.
    func report(_ movie: MovieID, _ news: ProviderNews) async throws
}
