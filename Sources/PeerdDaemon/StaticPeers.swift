import Logging
import NIOCore
import NIOPosix
import PeerdStore
import PeerdSync
import PeerdWire
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Dials every static peer (`--peer`, `peerctl connect`) and redials with backoff when a session
/// ends. A target whose peer is already connected some other way is left alone until that ends.
final class StaticPeers: Service {
    private let group: any EventLoopGroup
    private let sessions: PeerSessionFactory
    private let logger: Logger
    private let additions = AsyncStream.makeStream(of: PeerAddress.self)
    private let state: StateDirectory
    /// Serialises read-modify-write of the remembered peers file.
    private let remembering = Mutex(())

    init(
        initial: [PeerAddress],
        state: StateDirectory,
        group: any EventLoopGroup,
        sessions: PeerSessionFactory,
        logger: Logger
    ) {
        self.state = state
        self.group = group
        self.sessions = sessions
        self.logger = logger
        for address in initial { additions.continuation.yield(address) }
    }

    /// Adds a target at runtime (`peerctl connect`) and, with `remember`, saves it for the next start.
    func add(_ address: PeerAddress, remember: Bool) async throws(StoreError) {
        if await sessions.directory.addTarget(address) { additions.continuation.yield(address) }
        guard remember else { return }
        try remembering.withLock { _ throws(StoreError) in
            let saved = try state.loadPeers()
            if !saved.contains(address.description) { try state.savePeers(saved + [address.description]) }
        }
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

    /// "connection refused" rather than NIO's full error value.
    static func describe(_ error: any Error) -> String {
        let underlying = (error as? NIOConnectionError)?.connectionErrors.first?.error ?? error
        if let io = underlying as? IOError {
            return "cannot connect: \(String(cString: strerror(io.errnoCode)).lowercased())"
        }
        if underlying is ChannelError { return "cannot connect: timed out" }
        return "cannot connect: \(underlying)"
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
                        channel.eventLoop.makeCompletedFuture { try FramedChannel.wrap(channel) }
                    }
                outcome = await sessions.connection(
                    channel,
                    role: .dialer,
                    address: address.description,
                    source: .static
                ).run()
            } catch {
                outcome.error = Self.describe(error)
                logger.debug("dial failed", metadata: ["error": "\(error)"])
            }
            if outcome.code == .selfConnection {
                logger.warning("this peer address is this peerd itself; not dialing it again")
                await directory.removeTarget(address)
                return
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
