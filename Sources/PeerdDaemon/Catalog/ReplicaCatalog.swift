import PeerdCatalog
import PeerdModel
import PeerdWire

/// The catalog's view of the replica: which movies wait for details, when the list changes, and
/// appending a describe (signed, durable and replicated like any local operation).
struct ReplicaCatalog: CatalogReplica {
    let replica: ReplicaService

    func undescribed() async -> [(movie: MovieID, addedHere: Bool)] {
        await replica.undescribed()
    }

    func groupRegion() async -> String? {
        await replica.snapshot.list.settings?.region
    }

    func changes() async -> AsyncStream<Void> {
        await replica.listTicks()
    }

    func describe(_ movie: MovieID, _ details: MovieDetails) async throws {
        _ = try await replica.submit(.describe(movie, details), at: Wallclock.millis())
    }
}

/// The control edge's view of the catalog: TMDB's answers as control records.
struct TMDBCatalog: CatalogAccess {
    let service: CatalogService

    func lookup(_ ask: CatalogQuery.Ask) async throws -> CatalogAnswer.Found {
        try await service.lookup(ask)
    }

    func importLookup(_ ask: CatalogQuery.Ask) async throws -> CatalogAnswer.Found {
        try await service.lookup(ask, for: .importing)
    }

    func refresh(_ movies: [MovieID]) async -> Int { await service.refresh(movies) }

    func pendingReason(_ movie: MovieID) async -> String? { await service.pendingReason(movie) }

    func posterURL(for path: String) async -> String { service.posterURL(for: path) }

    func checkBeforeAdd(_ movie: MovieID) async -> AddCheck { await service.checkBeforeAdd(movie) }

    func checkCeiling(_ movie: MovieID, ceiling: String, region: String) async -> CeilingCheck {
        await service.checkCeiling(movie, ceiling: ceiling, region: region)
    }
}
