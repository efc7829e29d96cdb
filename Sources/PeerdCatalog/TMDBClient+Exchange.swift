import AsyncHTTPClient
import Logging
import NIOCore
import NIOHTTP1
import PeerdLoops
import PeerdModel
import Synchronization
import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One request and its answer, bounded in time and size.
extension TMDBClient {
    /// The body of TMDB's 2xx answer to `request`, or why there is none. A peer's request first
    /// needs a slot of the peers' share, free now (``RequestFor``).
    func fetch(_ request: TMDBRequest, for asker: RequestFor = .us) async throws(CatalogError) -> [UInt8] {
        let limits = settings.limits
        if asker == .peer, peerShare.withLock({ $0.reserve(now: .now, maxWait: .zero) }) == nil {
            throw .upstream(request, .throttled(peerShare.withLock { $0.waitForSlot(now: .now) }))
        }
        let maxWait = asker == .addCheck ? limits.requestInterval * 2 : limits.requestTimeout
        let slot = asker == .importing ? .zero : rateCap.withLock { $0.reserve(now: .now, maxWait: maxWait) }
        guard let slot else {
            throw .upstream(request, .throttled(rateCap.withLock { $0.waitForSlot(now: .now) }))
        }
        let started = ContinuousClock.now
        do {
            if slot > .zero { try await LoopClock.shared.sleep(for: slot) }
            let body = try await Self.withDeadline(limits.requestTimeout) { try await self.exchange(request) }
            logger.debug(
                "TMDB answered",
                metadata: ["request": "\(request)", "bytes": "\(body.count)", "took": "\(started.duration(to: .now))"]
            )
            return body
        } catch {
            let failure = classify(error)
            logger.debug("TMDB request failed", metadata: ["request": "\(request)", "cause": "\(failure)"])
            throw .upstream(request, failure)
        }
    }

    private func exchange(_ request: TMDBRequest) async throws -> [UInt8] {
        let deadline = NIODeadline.now() + Self.timeAmount(settings.limits.requestTimeout)
        let response = try await http.execute(httpRequest(request), deadline: deadline, logger: Self.silent)
        let status = response.status
        guard (200..<300).contains(status.code) else {
            let body = try? await response.body.collect(upTo: Self.errorBodyLimit)
            throw FailedExchange(
                failure: .status(
                    code: Int(status.code),
                    reason: status.reasonPhrase,
                    message: body.flatMap { TMDBResponses.errorMessage(Array($0.readableBytesView)) },
                    retryAfter: Self.retryAfter(status, response.headers)
                )
            )
        }
        let body = try await response.body.collect(upTo: settings.limits.maxResponseBytes)
        return Array(body.readableBytesView)
    }

    private func httpRequest(_ request: TMDBRequest) -> HTTPClientRequest {
        let credential = settings.credential
        let key = credential.kind == .apiKey ? [(name: "api_key", value: credential.token)] : []
        var http = HTTPClientRequest(url: settings.baseURL + request.target(language: settings.language, extra: key))
        http.headers.add(name: "Accept", value: "application/json")
        http.headers.add(name: "User-Agent", value: "peerd")
        if credential.kind == .readAccessToken {
            http.headers.add(name: "Authorization", value: "Bearer \(credential.token)")
        }
        return http
    }

    /// A body of TMDB's error JSON is a few hundred bytes; this is plenty.
    private static let errorBodyLimit = 64 << 10

    private static func retryAfter(_ status: HTTPResponseStatus, _ headers: HTTPHeaders) -> Duration? {
        guard status == .tooManyRequests || status == .serviceUnavailable,
            let value = headers.first(name: "retry-after")
        else { return nil }
        return RetryAfter.parse(value, now: Int64(Date().timeIntervalSince1970))
    }

    /// Runs `body`, failing with `DeadlineExceeded` once `limit` has passed; either way the loser
    /// is cancelled (which closes the connection of an unfinished answer).
    private static func withDeadline<Value: Sendable>(
        _ limit: Duration,
        _ body: @Sendable @escaping () async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Value.self) { group in
            group.addTask(operation: body)
            group.addTask {
                try await LoopClock.shared.sleep(for: limit)
                throw DeadlineExceeded()
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    /// What went wrong, in words that never hold the token.
    private func classify(_ error: any Error) -> UpstreamFailure {
        let limits = settings.limits
        switch error {
        case let error as FailedExchange: return error.failure
        case is DeadlineExceeded: return .timedOut(limits.requestTimeout)
        case is NIOTooManyBytesError: return .tooLarge(limit: limits.maxResponseBytes)
        case is CancellationError: return .cancelled
        case let error as HTTPClientError: return classify(error)
        case let error as IOError: return .transport(Errno(rawValue: error.errnoCode).description)
        default: return .transport(scrubbed(String(describing: error)))
        }
    }

    private func classify(_ error: HTTPClientError) -> UpstreamFailure {
        let limit = settings.limits.requestTimeout
        switch error {
        case .deadlineExceeded, .readTimeout: return .timedOut(limit)
        case .cancelled: return .cancelled
        case .connectTimeout: return .transport("no connection within \(FetchWait.text(limit))")
        case .remoteConnectionClosed: return .transport("TMDB closed the connection")
        default: return .transport(scrubbed(String(describing: error)))
        }
    }

    private func scrubbed(_ text: String) -> String {
        String(text.replacing(settings.credential.token, with: "…").prefix(200))
    }
}

/// A 2xx-less answer, carried out of the exchange as an error.
private struct FailedExchange: Error {
    var failure: UpstreamFailure
}

private struct DeadlineExceeded: Error {}
