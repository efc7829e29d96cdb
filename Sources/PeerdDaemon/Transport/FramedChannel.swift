import NIOCore
import PeerdWire
import ServiceLifecycle

/// What peer and control connections share: the framing pipeline and the accept loop.
enum FramedChannel {
    typealias Connection = NIOAsyncChannel<ByteBuffer, ByteBuffer>
    typealias Server = NIOAsyncChannel<AcceptedChannel<Connection>, Never>

    /// Frames in, frames out (`FrameDecoder` refuses oversized lengths from the header).
    static func accept(_ channel: any Channel) throws -> AcceptedChannel<Connection> {
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(FrameDecoder()))
        try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(FrameEncoder()))
        return .closing(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
    }

    /// Runs `handle` on each accepted connection in its own child task until graceful shutdown,
    /// which closes the listening socket; then returns once every connection has ended. Each ends
    /// itself at graceful shutdown, after its last frame (`shutting-down`): they are not cancelled,
    /// since a write from a cancelled task never reaches the wire (`NIOAsyncWriter` drops it).
    static func serve<Wrapped: Sendable>(
        _ server: NIOAsyncChannel<AcceptedChannel<Wrapped>, Never>,
        handle: @escaping @Sendable (Wrapped) async -> Void
    ) async throws {
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                try await server.executeThenClose { inbound in
                    for try await accepted in inbound {
                        guard let connection = accepted.take() else { continue }
                        group.addTask { await handle(connection) }
                    }
                }
            }
        } onGracefulShutdown: {
            server.channel.close(promise: nil)
        }
    }
}
