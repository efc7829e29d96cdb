import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// The kernel's own deadline for a stalled send: when data we sent stays unacknowledged this long
/// (a partition, a peer gone without a word), TCP aborts the connection and the dialer dials
/// afresh, instead of waiting out retransmissions backed off to many seconds. A slow but working
/// link acknowledges something well within it (proto/PEER.md, "Keepalive and liveness").
enum StalledSend {
    static let timeout = Duration.seconds(5)

    static var option: ChannelOptions.Types.SocketOption {
        ChannelOptions.tcpOption(.init(rawValue: TCP_USER_TIMEOUT))
    }

    static var milliseconds: SocketOptionValue {
        SocketOptionValue(timeout.components.seconds * 1000)
    }
}
