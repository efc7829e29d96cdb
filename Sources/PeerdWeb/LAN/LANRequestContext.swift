import Hummingbird
import NIOCore

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
