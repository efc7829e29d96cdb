import Logging
import PeerdLoops
import PeerdModel
import PeerdStore
import ServiceLifecycle
import Synchronization

/// Dials every peer we know how to reach — static ones (`--peer`, `peerctl connect`) and ones mDNS
/// found — and redials with backoff when a session ends, one loop per target. Each target's
/// ``DialTarget`` decides what to do: a target whose peer is already connected some other way waits
/// until that ends; a discovered one is dropped once mDNS has lost it and no session is up (the
/// session's keepalive, not mDNS, decides whether a peer is alive).
final class PeerDialer: Service {
    typealias Key = DialTarget.Key

    private let directory: PeerDirectory
    private let trust: TrustService
    private let dialing: any Dialing
    private let state: StateDirectory
    private let logger: Logger
    private let newTargets = AsyncStream.makeStream(of: Key.self)
    /// Serialises read-modify-write of the remembered peers file (on the ``BlockingPool``).
    private let remembering = Mutex(())

    /// - Parameter dialing: how a target's addresses are reached and a session run on them: the
    ///   daemon's ``NetworkDialing``, or a test's.
    init(
        initial: [PeerAddress],
        state: StateDirectory,
        directory: PeerDirectory,
        trust: TrustService,
        dialing: any Dialing,
        logger: Logger
    ) {
        self.state = state
        self.directory = directory
        self.trust = trust
        self.dialing = dialing
        self.logger = logger
        for address in initial { newTargets.continuation.yield(.address(address)) }
    }

    /// Adds a static target at runtime (`peerctl connect`, `peerctl join --address`); with `remember`,
    /// saves it for the next start. A target asked for again is dialed now, not after its backoff:
    /// a `join` with a new code must not wait out the refusals of the last one.
    func add(_ address: PeerAddress, remember: Bool) async throws(StoreError) {
        if await directory.upsertTarget(.address(address), addresses: [address], source: .named) {
            newTargets.continuation.yield(.address(address))
        } else {
            await directory.dialNow(.address(address))
        }
        guard remember else { return }
        try await BlockingPool.run { [self] () throws(StoreError) in
            try remembering.withLock { _ throws(StoreError) in
                let saved = try state.loadPeers()
                if !saved.contains(address.description) { try state.savePeers(saved + [address.description]) }
            }
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

    /// A member announced through the group how to reach it (or a join's code named the inviter's
    /// relay): its addresses are dialed, then its relay route, while no session with it is up.
    func reached(_ peer: PeerID, addresses: [PeerAddress], route: DialTarget.RelayRoute?) async {
        let key = Key.member(peer)
        if await directory.upsertTarget(key, addresses: addresses, source: .group, peer: peer, relayRoute: route) {
            newTargets.continuation.yield(key)
        }
    }

    /// mDNS no longer sees `peer`: only a hint, acted on when no session is up.
    func lost(_ peer: PeerID) async {
        await directory.lost(.discovered(peer))
    }

    func run() async throws {
        let dialUpdates = await trust.dialUpdates()
        await withDiscardingTaskGroup { tasks in
            // Who may be dialed changed: every target looks again (one announced but untrusted may now be).
            tasks.addTask {
                for await _ in dialUpdates.cancelOnGracefulShutdown() { await self.directory.wakeAll() }
            }
            for await key in newTargets.stream.cancelOnGracefulShutdown() {
                if case .address(let address) = key {
                    _ = await directory.upsertTarget(key, addresses: [address], source: .named)
                }
                tasks.addTask { await self.dialLoop(key) }
            }
            // Each dial loop ends by itself at graceful shutdown, once its session (if any) has said
            // `shutting-down`: cancelling it would cut that frame off.
        }
    }

    /// Carries out what `key`'s target says to do, until it says stop or peerd stops: dial, or wait
    /// for its deadline or for something to change (its doorbell), never polling.
    private func dialLoop(_ key: Key) async {
        var logger = self.logger
        logger[metadataKey: "target"] = "\(key)"
        var doorbell = await directory.wakeups(for: key).cancelOnGracefulShutdown().makeAsyncIterator()
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            switch await directory.next(key, now: .now, dialable: await isDialable(key)) {
            case .dial(let addresses, let connectTimeout):
                guard let target = await directory.target(key) else { return }
                // With a relayed session up, only a direct path is tried: one that works replaces it.
                var relayed = false
                if let peer = target.peer { relayed = await directory.isConnected(peer) }
                let outcome = await dialing.dial(
                    addresses,
                    relay: relayed ? nil : target.relayRoute,
                    source: target.source,
                    expected: target.peer,
                    connectTimeout: connectTimeout,
                    logger: logger
                )
                await directory.ended(key, outcome, now: .now)
            case .wait(let deadline):
                await withTaskGroup { group in
                    group.addTask {
                        guard (try? await LoopClock.shared.sleep(until: deadline)) != nil else { return }
                        self.directory.ring(key)
                    }
                    _ = await doorbell.next()
                    group.cancelAll()
                }
            case .waitForChange:
                guard await doorbell.next() != nil else { return }
            case .stop(.itself):
                logger.warning("this peer address is this peerd itself; not dialing it again")
                return
            case .stop(.lost):
                logger.info("peer left the LAN and is not connected; no longer dialing it")
                return
            case .stop(.removed):
                return
            }
        }
    }

    /// Only a peer that could be admitted is dialed: one mDNS announced but we don't trust waits,
    /// and nobody is dialed once this daemon's own key was removed from the group.
    private func isDialable(_ key: Key) async -> Bool {
        switch key {
        case .address: await trust.removal == nil
        case .discovered(let peer), .member(let peer): await trust.shouldDial(peer)
        }
    }
}
