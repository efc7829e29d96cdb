import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// One door's server on the LAN address (the guests', the devices'): a ``PageServer`` whose
/// connections are capped (``ConnectionCap``) and short-lived, run until its `stop` stream ends.
/// The door keeps the state; this only serves.
struct LANServer<Responder: HTTPResponder>: Sendable where Responder.Context == LANRequestContext {
    /// Connections at once, at most: in all (32 guests or phones with a few each), and from one
    /// address (a phone keeps two to six).
    static var maxConnections: (all: Int, perAddress: Int) { (256, 16) }

    /// Connections close after this long without a request; their headers are small.
    static func http1(_ count: ConnectionCap.Count) -> HTTP1Channel.Configuration {
        .init(
            additionalChannelHandlers: [ConnectionCap(count)],
            idleTimeout: .seconds(10),
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: 8 * 1024,
                maxHeaderListSize: 16 * 1024,
                maxHeaderFieldCount: 64
            )
        )
    }

    let responder: Responder
    let address: String
    let port: Int
    let eventLoopGroup: any EventLoopGroup
    let logger: Logger
    /// Where to choose another port, for the words of a port in use.
    let otherPort: String

    /// Serves until `stopped` finishes or the server fails: `listening(port)` once it listens (the
    /// port it bound, for `--…-port 0`), `failed(why)` when it can't.
    func run(
        until stopped: AsyncStream<Never>,
        listening: @escaping @Sendable (Int) async -> Void,
        failed: @escaping @Sendable (CannotListen) async -> Void
    ) async {
        let (address, port, otherPort) = (self.address, self.port, self.otherPort)
        let server = PageServer(
            responder: responder,
            configuration: ServerConfiguration(address: .hostname(address, port: port), reuseAddress: true),
            eventLoopGroup: eventLoopGroup,
            logger: logger,
            onServerRunning: { channel in await listening(channel.localAddress?.port ?? port) },
            http1: Self.http1(
                ConnectionCap.Count(limit: Self.maxConnections.all, perAddress: Self.maxConnections.perAddress)
            )
        )
        await withTaskGroup(of: Void.self) { lifetime in
            lifetime.addTask {
                do {
                    try await server.run()
                } catch {
                    await failed(CannotListen(address: address, port: port, error: error, otherPort: otherPort))
                }
            }
            lifetime.addTask { for await _ in stopped {} }
            await lifetime.next()
            lifetime.cancelAll()
        }
    }
}
