import Logging
import NIOPosix
import PeerdCatalog
import SystemPackage

/// A TMDBClient pointed at a fake TMDB; after `body` both are shut down (the fake keeps its
/// record of requests).
func withClient<Result>(
    _ server: FakeTMDB,
    token: String = TMDBCredentialTests.readAccessToken,
    limits: CatalogLimits = CatalogLimits(),
    logger: Logger = Logger(label: "peerd.catalog.test"),
    _ body: (TMDBClient) async throws -> Result
) async throws -> Result {
    let client = TMDBClient(
        settings: try settings(server, token: token, limits: limits, cache: "/nonexistent"),
        eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
        logger: logger
    )
    let result: Swift.Result<Result, any Error>
    do {
        result = .success(try await body(client))
    } catch {
        result = .failure(error)
    }
    try await client.shutdown()
    try await server.stop()
    return try result.get()
}

func settings(
    _ server: FakeTMDB,
    token: String = TMDBCredentialTests.readAccessToken,
    limits: CatalogLimits = CatalogLimits(),
    cache: FilePath
) throws -> CatalogSettings {
    try CatalogSettings(
        credential: TMDBCredential(token: token, source: "test"),
        cacheDirectory: cache,
        baseURL: server.baseURL,
        limits: limits
    )
}

/// Runs `body` and returns what it threw (nil if nothing) and how long it took.
func failure<Value>(
    of body: () async throws(CatalogError) -> Value
) async -> (error: CatalogError?, took: Duration) {
    let started = ContinuousClock.now
    do {
        _ = try await body()
        return (nil, started.duration(to: .now))
    } catch {
        return (error, started.duration(to: .now))
    }
}
