import NIOCore
import Synchronization

/// Counts the bytes that arrive on a peer connection, before TLS: the session takes any of them
/// as a sign of life, so a slow link that delivers part of a large frame every few seconds is not
/// closed for silence (proto/PEER.md, "Keepalive and liveness"). Frames alone would count only once complete.
final class ArrivingBytes: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let total = Atomic<Int>(0)

    /// How many bytes have arrived so far.
    var count: Int { total.load(ordering: .relaxed) }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        total.add(unwrapInboundIn(data).readableBytes, ordering: .relaxed)
        context.fireChannelRead(data)
    }
}
