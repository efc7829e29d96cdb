import NIOCore
import NIOPosix
import PeerdRelay
import PeerdSync

@testable import PeerdDaemon

/// A relay's session port, of the test's own: reads one `JoinSessionRequest`, writes `answer`,
/// and then, if given TLS, is that TLS's server and says ``greeting``. Each join it read is in ``joins``.
struct FakeSessionRelay: Sendable {
    let url: RelayURL
    let joins: AsyncStream<RelayMessage>
    /// What the relay says inside TLS, once TLS is up.
    static let greeting = "hello through TLS"

    var invitation: RelayInvitation {
        RelayInvitation(
            from: RelayDeviceID(certificateDER: []),
            key: RelaySessionJoinerTests.key,
            host: url.host,
            port: url.port,
            serverSocket: false
        )
    }
}

func withFakeRelay(
    answering answer: [UInt8],
    thenTLS tls: PeerTLS? = nil,
    _ body: (FakeSessionRelay) async throws -> Void
) async throws {
    let (joins, seen) = AsyncStream.makeStream(of: RelayMessage.self)
    let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .childChannelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(FakeRelayHandler(answer: answer, tls: tls, seen: seen))
            }
        }
        .bind(host: "127.0.0.1", port: 0)
        .get()
    let relay = FakeSessionRelay(url: RelayURL(host: "127.0.0.1", port: server.localAddress!.port!), joins: joins)
    do {
        try await body(relay)
    } catch {
        try await server.close()
        throw error
    }
    try await server.close()
}

private final class FakeRelayHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let answer: [UInt8]
    let tls: PeerTLS?
    let seen: AsyncStream<RelayMessage>.Continuation
    var received = ByteBuffer()

    init(answer: [UInt8], tls: PeerTLS?, seen: AsyncStream<RelayMessage>.Continuation) {
        self.answer = answer
        self.tls = tls
        self.seen = seen
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        received.writeBuffer(&bytes)
        guard let join = try? RelaySessionJoiner<Int>.answer(&received) else { return }
        seen.yield(join)
        if !answer.isEmpty { context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: answer)), promise: nil) }
        guard let tls else { return }
        try? tls.addHandler(to: context.channel, role: .acceptor)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        // Held by TLS until its handshake is done: the client never writes, so it came only if the
        // client began the handshake by itself.
        context.channel.writeAndFlush(ByteBuffer(string: FakeSessionRelay.greeting), promise: nil)
    }
}
