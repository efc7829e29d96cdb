import Logging
import NIOCore
import NIOPosix
import PeerdModel
import PeerdSecurity
import PeerdStore
import PeerdSync
import PeerdWire
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Dials every peer we know how to reach — static ones (`--peer`, `peerctl connect`) and ones mDNS
/// found — and redials with backoff when a session ends. A target whose peer is already connected
/// some other way is left alone until that ends; a discovered one is dropped once mDNS has lost it
/// and no session is up (the session's keepalive, not mDNS, decides whether a peer is alive).
final class PeerDialer: Service {
    typealias Key = PeerDirectory.DialTarget.Key

    private let group: any EventLoopGroup
    private let sessions: PeerSessionFactory
    private let state: StateDirectory
    private let logger: Logger
    private let newTargets = AsyncStream.makeStream(of: Key.self)
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
        for address in initial { newTargets.continuation.yield(.address(address)) }
    }

    private var directory: PeerDirectory { sessions.directory }

    /// Adds a static target at runtime (`peerctl connect`); with `remember`, saves it for the next start.
    func add(_ address: PeerAddress, remember: Bool) async throws(StoreError) {
        if await directory.upsertTarget(.address(address), addresses: [address], source: .static) {
            newTargets.continuation.yield(.address(address))
        }
        guard remember else { return }
        try remembering.withLock { _ throws(StoreError) in
            let saved = try state.loadPeers()
            if !saved.contains(address.description) { try state.savePeers(saved + [address.description]) }
        }
    }

    /// mDNS found `peer` (again) at `addresses`.
    func discovered(_ peer: PeerID, name: String, addresses: [PeerAddress]) async {
        let key = Key.discovered(peer)
        if await directory.upsertTarget(key, addresses: addresses, source: .mdns, peer: peer, name: name) {
            logger.info(
                "found peer on the LAN",
                metadata: ["peer": "\(peer.short)", "name": "\(name)", "addresses": "\(addresses)"]
            )
            newTargets.continuation.yield(key)
        }
    }

    /// mDNS no longer sees `peer`: only a hint, acted on when no session is up.
    func lost(_ peer: PeerID) async {
        await directory.updateTarget(.discovered(peer)) { $0.lost = true }
    }

    func run() async throws {
        await withDiscardingTaskGroup { tasks in
            for await key in newTargets.stream.cancelOnGracefulShutdown() {
                if case .address(let address) = key {
                    _ = await directory.upsertTarget(key, addresses: [address], source: .static)
                }
                tasks.addTask { await self.dialLoop(key) }
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

    private func dialLoop(_ key: Key) async {
        var backoff = Backoff()
        var logger = self.logger
        logger[metadataKey: "target"] = "\(key)"
        while !Task.isCancelled, let target = await directory.target(key) {
            if let peer = target.peer, await directory.isConnected(peer) {
                await directory.updateTarget(key) { $0.state = .connected }
                guard (try? await Task.sleep(for: .seconds(1))) != nil else { return }
                continue
            }
            if target.lost {
                logger.info("peer left the LAN and is not connected; no longer dialing it")
                await directory.removeTarget(key)
                return
            }
            await directory.updateTarget(key) {
                $0.state = .connecting
                $0.retryAt = nil
            }
            // Only a peer that could be admitted is dialed; one mDNS announced but we don't trust waits.
            if case .discovered(let peer) = key, await !sessions.trust.shouldDial(peer) {
                await directory.updateTarget(key) { $0.state = .untrusted }
                guard (try? await Task.sleep(for: .seconds(2))) != nil else { return }
                continue
            }
            let outcome = await dialOnce(
                target.addresses,
                source: target.source,
                expected: target.peer,
                logger: logger
            )
            if outcome.code == .selfConnection || outcome.refusal == .selfConnection {
                logger.warning("this peer address is this peerd itself; not dialing it again")
                await directory.removeTarget(key)
                return
            }
            let delay = backoff.next(after: outcome.establishedFor)
            await directory.updateTarget(key) {
                if let peer = outcome.peer { $0.peer = peer }
                $0.lastError = outcome.error
                $0.state = .retrying
                $0.retryAt = .now + delay
            }
            guard (try? await Task.sleep(for: delay)) != nil else { return }
        }
    }

    /// Tries each address in order until one connects, and runs the session on it.
    private func dialOnce(
        _ addresses: [PeerAddress],
        source: PeerRecord.Source,
        expected: PeerID?,
        logger: Logger
    ) async -> PeerConnection.Outcome {
        var outcome = PeerConnection.Outcome(error: "no address to dial")
        for address in addresses {
            do {
                let tls = sessions.tls
                let channel = try await ClientBootstrap(group: group)
                    .connectTimeout(.seconds(5))
                    .channelOption(.tcpOption(.tcp_nodelay), value: 1)
                    .connect(host: address.host, port: address.port) { channel in
                        channel.eventLoop.makeCompletedFuture {
                            try PeerChannel.wrap(channel, role: .dialer, tls: tls, gate: nil)
                        }
                    }
                return await sessions.connection(
                    channel,
                    role: .dialer,
                    address: address.description,
                    source: source,
                    expected: expected
                )
                .run()
            } catch {
                outcome.error = Self.describe(error)
                logger.debug("dial failed", metadata: ["address": "\(address)", "error": "\(error)"])
            }
        }
        return outcome
    }
}
