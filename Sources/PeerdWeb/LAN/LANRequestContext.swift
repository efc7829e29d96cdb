import Hummingbird
import NIOCore

/// A door on the LAN's answers (the guests', the devices'): each ``answer(_:context:)`` with the
/// page's headers (``WebHeaders``), refusals included.
protocol LANResponder: HTTPResponder where Context == LANRequestContext {
    func answer(_ request: Request, context: Context) async -> Response
}

extension LANResponder {
    func respond(to request: Request, context: Context) async throws -> Response {
        var response = await answer(request, context: context)
        response.headers.append(contentsOf: WebHeaders.all)
        return response
    }
}

/// A request to a door on the LAN (guests', devices'), with the address it came from (for the
/// per-address limits) and its connection (to learn when the client leaves).
struct LANRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let address: String
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        address = source.channel.remoteAddress?.ipAddress ?? "unknown"
        channel = source.channel
    }

    /// Completes when the client closed its side of the connection: what ``ConnectionCap`` on it
    /// says; nil on a connection without one.
    func clientGone() async -> EventLoopFuture<Void>? {
        try? await channel.pipeline.handler(type: ConnectionCap.self).get().clientGone
    }
}
