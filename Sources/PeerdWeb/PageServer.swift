import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// Serves the page's routes on one address: what Hummingbird's `Application.run()` does, less its
/// date cache, a service that wakes every second to format the `Date` header ahead of the next
/// response. The page is asked for now and then, so each response formats its own (``HTTPDate``)
/// and an idle daemon sleeps.
struct PageServer<Responder: HTTPResponder>: Service
where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
    let responder: Responder
    let configuration: ServerConfiguration
    let eventLoopGroup: any EventLoopGroup
    let logger: Logger
    let onServerRunning: @Sendable (any Channel) async -> Void
    /// HTTP/1.1's limits: idle connections, headers.
    var http1 = HTTP1Channel.Configuration()

    func run() async throws {
        let (responder, logger) = (self.responder, self.logger)
        let server = try HTTPServerBuilder.http1(configuration: http1).buildServer(
            configuration: configuration,
            eventLoopGroup: eventLoopGroup,
            logger: logger,
            responder: { request, writer, channel in
                var response = await Self.respond(to: request, with: responder, channel: channel, logger: logger)
                response.headers[.date] = HTTPDate.now()
                try await writer.write(response: response.head, body: response.body)
            },
            onServerRunning: onServerRunning
        )
        try await server.run()
    }

    /// The responder's answer; an error it throws is a 500, as in Hummingbird's application.
    private static func respond(
        to request: Request,
        with responder: Responder,
        channel: any Channel,
        logger: Logger
    ) async -> Response {
        let context = Responder.Context(source: .init(channel: channel, logger: logger))
        do {
            return try await responder.respond(to: request, context: context)
        } catch {
            logger.debug("the page's responder failed", metadata: ["error": "\(error)"])
            return Response(status: .internalServerError)
        }
    }
}
