import NIOCore
import Synchronization

/// Notes when bytes last arrived on a peer connection, before TLS: the session takes any of them
/// as a sign of life, so a slow link that delivers part of a large frame every few seconds is not
/// closed for silence (proto/PEER.md, "Keepalive and liveness"). Frames alone would count only once
/// complete. The connection asks only when its timer fires, so arriving bytes wake nothing.
final class ArrivingBytes: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let origin = ContinuousClock.now
    /// Nanoseconds from `origin` to the last arrival; -1 before the first.
    private let last = Atomic<Int64>(-1)

    /// When bytes last arrived, if any have.
    var lastArrival: ContinuousClock.Instant? {
        let nanoseconds = last.load(ordering: .relaxed)
        return nanoseconds < 0 ? nil : origin + .nanoseconds(nanoseconds)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        last.store(Int64(origin.duration(to: .now) / .nanoseconds(1)), ordering: .relaxed)
        context.fireChannelRead(data)
    }
}
