import Logging
import NIOCore
import NIOPosix
import PeerdSecurity
import PeerdSync
import PeerdWire
import ServiceLifecycle

/// Accepts peer connections on the TCP port and runs a session on each. At most `gate.limit` of
/// them may be between accept and admission at once; more are closed at accept, before TLS.
final class PeerListener: Service {
    private let server: Server
    private let sessions: PeerSessionFactory
    private let logger: Logger

    typealias Server = NIOAsyncChannel<AcceptedChannel<PeerChannel>, Never>

    static let backlog: Int32 = 4096

    /// Binds the port; done before anything else starts so a port in use is reported at once.
    static func bind(
        host: String,
        port: Int,
        group: any EventLoopGroup,
        tls: PeerTLS,
        gate: AdmissionGate
    ) async throws -> Server {
        try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // Room for a burst: a connection the kernel can't queue waits unseen in SYN retries
            // (up to a minute), where the admission cap can't close it. The kernel caps this at
            // net.core.somaxconn (4096 on current kernels).
            .serverChannelOption(.backlog, value: Self.backlog)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(StalledSend.option, value: StalledSend.milliseconds)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let connection = try PeerChannel.wrap(channel, role: .acceptor, tls: tls, gate: gate)
                    return AcceptedChannel(connection) { try? await $0.connection.executeThenClose { _, _ in } }
                }
            }
    }

    init(server: Server, sessions: PeerSessionFactory, logger: Logger) {
        self.server = server
        self.sessions = sessions
        self.logger = logger
    }

    func run() async throws {
        try await FramedChannel.serve(server) { connection in
            let address = connection.connection.channel.remoteAddress.map(Self.describe) ?? "unknown"
            _ = await self.sessions.connection(connection, role: .acceptor, address: address, source: .inbound).run()
        }
    }

    /// `1.2.3.4:5678` or `[fe80::1]:5678`; IPv4 clients of the dual-stack socket show as IPv4.
    static func describe(_ address: SocketAddress) -> String {
        guard var ip = address.ipAddress, let port = address.port else { return "\(address)" }
        if ip.hasPrefix("::ffff:"), !ip.dropFirst(7).contains(":") { ip.removeFirst(7) }
        return ip.contains(":") ? "[\(ip)]:\(port)" : "\(ip):\(port)"
    }
}
