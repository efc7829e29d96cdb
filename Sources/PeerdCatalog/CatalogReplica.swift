package import PeerdModel

/// What the catalog needs of the replica (the daemon implements it over its ReplicaService).
package protocol CatalogReplica: Sendable {
    /// Listed movies that wait for a describe, and whether this peer added each: none reached them
    /// yet, or the newest one's where-to-watch is not for the group's region.
    func undescribed() async -> [(movie: MovieID, addedHere: Bool)]
    /// The region the group chose, once a member set it.
    func groupRegion() async -> String?
    /// A tick whenever the list or its describes change.
    func changes() async -> AsyncStream<Void>
    /// Appends a describe (signed, durable, replicated) of `movie`.
    func describe(_ movie: MovieID, _ details: MovieDetails) async throws
}
