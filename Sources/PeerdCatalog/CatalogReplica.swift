package import PeerdModel

/// What the catalog needs of the replica (the daemon implements it over its ReplicaService).
package protocol CatalogReplica: Sendable {
    /// Listed movies with no describe yet, and whether this peer added each.
    func undescribed() async -> [(movie: MovieID, addedHere: Bool)]
    /// A tick whenever the list or its describes change.
    func changes() async -> AsyncStream<Void>
    /// Appends a describe (signed, durable, replicated) of `movie`.
    func describe(_ movie: MovieID, _ details: MovieDetails) async throws
}
