import Logging
import NIOCore
import NIOPosix
import PeerdSync
import PeerdWire
import ServiceLifecycle

/// Dials every static peer (`--peer`, `peerctl connect`) and redials with backoff when a session
/// ends. A target whose peer is already connected some other way is left alone until that ends.
final class StaticPeers: Service {
    private let group: any EventLoopGroup
    private let sessions: PeerSessionFactory
    private let logger: Logger
    private let additions = AsyncStream.makeStream(of: PeerAddress.self)

    init(initial: [PeerAddress], group: any EventLoopGroup, sessions: PeerSessionFactory, logger: Logger) {
        self.group = group
        self.sessions = sessions
        self.logger = logger
        for address in initial { additions.continuation.yield(address) }
    }

    /// Adds a target at runtime; false if it was already one.
    func add(_ address: PeerAddress) async -> Bool {
        guard await sessions.directory.addTarget(address) else { return false }
        additions.continuation.yield(address)
        return true
    }

    func run() async throws {
        await withDiscardingTaskGroup { tasks in
            for await address in additions.stream.cancelOnGracefulShutdown() {
                _ = await sessions.directory.addTarget(address)
                tasks.addTask { await self.dialLoop(address) }
            }
            tasks.cancelAll()
        }
    }

    private func dialLoop(_ address: PeerAddress) async {
        let directory = sessions.directory
        var backoff = Backoff()
        var logger = self.logger
        logger[metadataKey: "address"] = "\(address)"
        while !Task.isCancelled {
            if let peer = await directory.target(address)?.peer, await directory.isConnected(peer) {
                await directory.updateTarget(address) { $0.state = .connected }
                guard (try? await Task.sleep(for: .seconds(1))) != nil else { return }
                continue
            }
            await directory.updateTarget(address) {
                $0.state = .connecting
                $0.retryAt = nil
            }
            var outcome = PeerConnection.Outcome()
            do {
                let channel = try await ClientBootstrap(group: group)
                    .connectTimeout(.seconds(5))
                    .channelOption(.socketOption(.tcp_nodelay), value: 1)
                    .connect(host: address.host, port: address.port) { channel in
                        channel.eventLoop.makeCompletedFuture { try PeerChannel.wrap(channel) }
                    }
                outcome = await sessions.connection(channel, role: .dialer, address: address.description, source: .static).run()
            } catch {
                outcome.error = "\(error)"
                logger.debug("dial failed", metadata: ["error": "\(error)"])
            }
            let delay = backoff.next(after: outcome.establishedFor)
            await directory.updateTarget(address) {
                if let peer = outcome.peer { $0.peer = peer }
                $0.lastError = outcome.error
                $0.state = .retrying
                $0.retryAt = .now + delay
            }
            guard (try? await Task.sleep(for: delay)) != nil else { return }
        }
    }
}
