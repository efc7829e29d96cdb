import Hummingbird
import HummingbirdCore
package import Logging
package import NIOCore
import NIOPosix
import PeerdLoops
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// The page (proto/WEB.md) as one more service of the daemon: Hummingbird on the daemon's event
/// loop group, on each of the settings' addresses and one port. If the page can't be served (its
/// port is taken, its token file is refused) peerd goes on without it and says why.
package final class WebService<Backend: WebBackend>: Service {
    let settings: WebSettings
    let page: WebPage
    let backend: Backend
    let eventLoopGroup: any EventLoopGroup
    let logger: Logger

    package init(
        settings: WebSettings,
        page: WebPage,
        backend: Backend,
        eventLoopGroup: any EventLoopGroup,
        logger: Logger
    ) {
        self.settings = settings
        self.page = page
        self.backend = backend
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
    }

    package func run() async throws {
        do {
            let path = settings.tokenPath
            let token = try await BlockingPool.run { () throws(WebTokenError) in try WebToken.load(at: path) }
            try await serve(token: token)
        } catch {
            let reason = "\(error)"
            page.state = .off(reason: reason)
            logger.error("the page is off", metadata: ["reason": "\(reason)"])
            try? await gracefulShutdown()
        }
    }

    /// Binds the first address (on the settings' port, or a free one), then the others on the same
    /// port. An address that can't be bound beyond the first is only logged (no IPv6, say). The
    /// backend runs beside them: it feeds the event streams.
    private func serve(token: WebToken) async throws {
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await self.backend.run() }
            let (bound, report) = AsyncStream.makeStream(of: Result<Int, any Error>.self)
            let first = settings.addresses[0]
            group.addTask {
                do {
                    try await self.application(first, port: self.settings.port, token: token, report: report).run()
                } catch {
                    report.yield(.failure(CannotListen(address: first, port: self.settings.port, error: error)))
                }
            }
            var results = bound.makeAsyncIterator()
            let port = try await results.next()?.get() ?? settings.port
            page.state = .serving(host: WebPage.urlHost(first), port: port, token: token)
            logger.info("serving the page", metadata: ["address": "\(page.address ?? "")"])
            for address in settings.addresses.dropFirst() {
                group.addTask {
                    do {
                        try await self.application(address, port: port, token: token, report: nil).run()
                    } catch {
                        self.logger.notice(
                            "the page is not served on one address",
                            metadata: ["address": "\(address)", "error": "\(error)"]
                        )
                    }
                }
            }
        }
    }

    private func application(
        _ address: String,
        port: Int,
        token: WebToken,
        report: AsyncStream<Result<Int, any Error>>.Continuation?
    ) -> some Service {
        let gate = BoundGate(WebGate(token: token, port: port, addresses: settings.addresses))
        return PageServer(
            responder: WebRoutes.router(gate: gate, backend: backend).buildResponder(),
            configuration: ServerConfiguration(address: .hostname(address, port: port), reuseAddress: true),
            eventLoopGroup: eventLoopGroup,
            logger: logger,
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                gate.listening(on: bound)
                report?.yield(.success(bound))
            }
        )
    }
}

/// Why the page's first address could not be served: which address and port, and the system's reason.
struct CannotListen: Error, CustomStringConvertible {
    let address: String
    let port: Int
    let error: any Error
    /// Where to choose another port.
    var otherPort = "--web-port, or \"webPort\""

    var description: String {
        let reason =
            if let io = error as? IOError {
                String(cString: strerror(io.errnoCode)).lowercased()
            } else {
                "\(error)"
            }
        let advice = (error as? IOError)?.errnoCode == EADDRINUSE ? " (another port: \(otherPort))" : ""
        return "can't listen on \(WebPage.urlHost(address)):\(port): \(reason)\(advice)"
    }
}
