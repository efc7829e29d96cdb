import Logging
import NIOCore
import NIOPosix
import PeerdModel
import PeerdWire
import ServiceLifecycle

/// Serves `peerctl` on the Unix control socket. A connection may carry several requests in order;
/// `follow` turns it into a stream of changes until the client hangs up.
final class ControlServer: Service {
    private let server: FramedChannel.Server
    private let responder: ControlResponder
    private let logger: Logger

    /// Binds now: the socket exists (mode 0600, in a directory only we can enter) once this returns.
    init(socket: ControlSocketPath, group: any EventLoopGroup, responder: ControlResponder, logger: Logger) async throws
    {
        try socket.prepare()
        server = try await ServerBootstrap(group: group)
            .bind(unixDomainSocketPath: socket.path, cleanupExistingSocketFile: false) { channel in
                channel.eventLoop.makeCompletedFuture { try FramedChannel.wrap(channel) }
            }
        try socket.restrictPermissions()
        self.responder = responder
        self.logger = logger
    }

    func run() async throws {
        try await FramedChannel.serve(server) { connection in await self.serve(connection) }
    }

    private func serve(_ connection: FramedChannel.Connection) async {
        do {
            try await connection.executeThenClose { inbound, outbound in
                var frames = inbound.makeAsyncIterator()
                while true {
                    let frame: ByteBuffer
                    do {
                        guard let next = try await frames.next() else { return }
                        frame = next
                    } catch let error as FrameError {
                        logger.notice("bad control frame", metadata: ["error": "\(error)"])
                        try await outbound.write(Self.encode(.error(WireError(error.code, error.description))))
                        return
                    }
                    let request: ControlRequest
                    do throws(WireError) {
                        request = try WireCoding.decode(ControlRequest.self, from: frame)
                    } catch {
                        logger.notice("bad control request", metadata: ["error": "\(error)"])
                        try await outbound.write(Self.encode(.error(error)))
                        // A well-framed request of an unknown type or version leaves the stream intact.
                        guard error.code == .unknownType || error.code == .unsupportedVersion else { return }
                        continue
                    }
                    if case .follow = request {
                        try await follow(frames: &frames, outbound: outbound)
                        return
                    }
                    try await outbound.write(Self.encode(await responder.respond(to: request)))
                }
            }
        } catch {
            logger.debug("control connection ended", metadata: ["error": "\(error)"])
        }
    }

    /// Streams changes until the client closes its end (or sends anything more).
    private func follow(
        frames: inout NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator,
        outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    ) async throws {
        let (id, changes) = await responder.replica.changes()
        do {
            try await outbound.write(Self.encode(.following))
            try await withThrowingTaskGroup { group in
                group.addTask {
                    for await batch in changes {
                        for change in batch {
                            try await outbound.write(Self.encode(.change(ChangeRecord(change))))
                        }
                    }
                }
                // The client never sends after `follow`; anything, or its end, means it is done.
                _ = try? await frames.next()
                group.cancelAll()
            }
        } catch {
            await responder.replica.unsubscribe(id)
            throw error
        }
        await responder.replica.unsubscribe(id)
    }

    static func encode(_ response: ControlResponse) -> ByteBuffer {
        WireCoding.encodeBuffer(response)
    }
}
