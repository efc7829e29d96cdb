import AsyncHTTPClient
package import Logging
package import NIOCore
package import PeerdModel
package import PeerdWire
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// TMDB's API over HTTP: AsyncHTTPClient on the daemon's event loop group, TLS verified (the
/// default), plain http only for a loopback base URL (``CatalogSettings``).
///
/// Each request has a deadline for the whole exchange, a size limit on the answer (the body is
/// streamed and refused once over, never buffered whole) and a slot under peerd's own rate cap. A
/// 429 or 503 fails with TMDB's `Retry-After` in the error, so the caller waits. Redirects are not
/// followed (they would carry the token elsewhere) and answers are not decompressed.
package final class TMDBClient: Sendable {
    package let settings: CatalogSettings
    let http: HTTPClient
    let logger: Logger
    let rateCap: Mutex<TokenBucket<ContinuousClock.Instant>>
    /// What peers' queries may use of `rateCap`, all of them together: half its rate and half its
    /// burst (``RequestFor``).
    let peerShare: Mutex<TokenBucket<ContinuousClock.Instant>>
    private let imageBase = Mutex(TMDBResponses.defaultImageBase)

    package init(settings: CatalogSettings, eventLoopGroup: any EventLoopGroup, logger: Logger) {
        let configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: Self.timeAmount(settings.limits.requestTimeout)),
            decompression: .disabled
        )
        self.settings = settings
        self.http = HTTPClient(
            eventLoopGroup: eventLoopGroup,
            configuration: configuration,
            backgroundActivityLogger: Self.silent
        )
        self.logger = logger
        self.rateCap = Mutex(
            TokenBucket(interval: settings.limits.requestInterval, burst: settings.limits.burst)
        )
        self.peerShare = Mutex(
            TokenBucket(interval: settings.limits.requestInterval * 2, burst: max(1, settings.limits.burst / 2))
        )
    }

    /// `/3/movie/{id}` in the configured language, with where to watch it in `region` (by default
    /// the language's).
    package func details(
        of movie: MovieID,
        region: String? = nil,
        for asker: RequestFor = .us
    ) async throws(CatalogError) -> MovieDetails {
        try await fetchMovie(movie, region: region, for: asker).details
    }

    /// As ``details(of:region:for:)``, with the movie's certifications from the same answer
    /// (`append_to_response=release_dates`).
    package func fetchMovie(
        _ movie: MovieID,
        region: String? = nil,
        for asker: RequestFor = .us
    ) async throws(CatalogError) -> FetchedMovie {
        let request = TMDBRequest.details(movie)
        let body = try await fetch(request, for: asker)
        let fetchedAt = Int64(Date().timeIntervalSince1970 * 1_000)
        return try Self.parsing(request) { () throws(CatalogError) in
            FetchedMovie(
                details: try TMDBResponses.details(
                    body,
                    language: settings.language,
                    region: region,
                    fetchedAt: fetchedAt
                ),
                certifications: try TMDBResponses.appendedReleaseDates(body)
            )
        }
    }

    /// Where `movie` can be watched in `region` now (`/3/movie/{id}/watch/providers`), and when
    /// TMDB answered, milliseconds since 1970: a news check's one request.
    package func watchProviders(
        of movie: MovieID,
        region: String
    ) async throws(CatalogError) -> (providers: WatchProviders, read: Int64) {
        let request = TMDBRequest.watchProviders(movie)
        let body = try await fetch(request)
        let read = Int64(Date().timeIntervalSince1970 * 1_000)
        let providers = try Self.parsing(request) { () throws(CatalogError) in
            try TMDBResponses.movieProviders(body, region: region)
        }
        return (providers, read)
    }

    /// Whose request it is. This peer's own (its describes, its user's searches) and peers'
    /// queries wait for a slot of the rate cap alike, in turn; but peers' queries, all together,
    /// first need a slot of their share, free now: half the cap's rate and half its burst. So a
    /// member's flood leaves this peer's describes half the burst at once and half the rate, and
    /// a backlog of describes (a big list catching up) still lets queries through, a slot in two.
    /// An import's lookups take no slot of the cap: `peerctl import` paces them itself (ImportJournals,
    /// 40 a second), so that with the cap's 4 a second peerd stays under TMDB's documented ceiling
    /// of about 50 a second, and a list of a thousand rows comes in within a minute.
    /// An add's check (``AddCheck``) is this peer's own, but takes a slot of the cap only if one
    /// frees within two of its intervals (500 ms): the add waits for TMDB briefly, never long for a slot.
    package enum RequestFor: Sendable {
        case us
        case peer
        case importing
        case addCheck
    }

    /// One page (1-based) of `/3/search/movie`, optionally limited to a release year.
    package func search(
        _ query: String,
        year: Int?,
        page: Int,
        for asker: RequestFor = .us
    ) async throws(CatalogError) -> SearchResultsRecord {
        let request = TMDBRequest.search(query: query, year: year, page: page)
        let body = try await fetch(request, for: asker)
        return try Self.parsing(request) { () throws(CatalogError) in try TMDBResponses.searchPage(body, query: query) }
    }

    /// Asks `/3/configuration` where posters are, uses the answer from now on and returns it.
    package func fetchImageBase() async throws(CatalogError) -> String {
        let body = try await fetch(.configuration)
        let base = try Self.parsing(.configuration) { () throws(CatalogError) in try TMDBResponses.imageBase(body) }
        useImageBase(base)
        return base
    }

    /// Uses `base` (e.g. from the cache) for ``posterURL(for:)``.
    package func useImageBase(_ base: String) {
        imageBase.withLock { $0 = base }
    }

    /// The poster's URL: `https://image.tmdb.org/t/p/w500/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg`.
    package func posterURL(for path: String) -> String {
        imageBase.withLock { $0 } + (path.hasPrefix("/") ? path : "/" + path)
    }

    /// Closes the connections. Calling it again does nothing.
    package func shutdown() async throws {
        do {
            try await http.shutdown()
        } catch let error as HTTPClientError where error == .alreadyShutdown {
            return
        }
    }

    /// A parser's `unexpectedResponse` becomes the request's `malformed` failure.
    static func parsing<Value>(
        _ request: TMDBRequest,
        _ parse: () throws(CatalogError) -> Value
    ) throws(CatalogError) -> Value {
        do {
            return try parse()
        } catch .unexpectedResponse(let reason) {
            throw .upstream(request, .malformed(reason))
        }
    }

    /// For AsyncHTTPClient, whose logs may hold URLs, and a v3 key rides in the URL.
    static let silent = Logger(label: "peerd.catalog.http") { _ in SwiftLogNoOpLogHandler() }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
