import NIOCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Counts the bytes that arrive on a peer connection, before TLS: the session takes any of them
/// as a sign of life, so a slow link that delivers part of a large frame every few seconds is not
/// closed for silence (proto/PEER.md, "Liveness"). Frames alone would count only once complete.
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

/// The kernel's own deadline for a stalled send: when data we sent stays unacknowledged this long
/// (a partition, a peer gone without a word), TCP aborts the connection and the dialer dials
/// afresh, instead of waiting out retransmissions backed off to many seconds. A slow but working
/// link acknowledges something well within it (proto/PEER.md, "Liveness").
enum StalledSend {
    static let timeout = Duration.seconds(5)

    static var option: ChannelOptions.Types.SocketOption {
        ChannelOptions.tcpOption(.init(rawValue: TCP_USER_TIMEOUT))
    }

    static var milliseconds: SocketOptionValue {
        SocketOptionValue(timeout.components.seconds * 1000)
    }
}
