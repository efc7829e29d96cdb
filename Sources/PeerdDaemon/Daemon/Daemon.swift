package import Logging
import NIOCore
import NIOPosix
import PeerdCatalog
import PeerdModel
import PeerdSecurity
import PeerdStore
import ServiceLifecycle
import SystemPackage
import UnixSignals

#if canImport(Glibc)
import Glibc
#endif

/// Opens the state, binds both sockets, and runs every part as a service until SIGTERM or SIGINT.
package enum Daemon {
    package static func run(_ configuration: DaemonConfiguration, logger: Logger) async throws {
        let started = ContinuousClock.now
        HeapTuning.apply()
        let state = try OpenedState(configuration, logger: logger)
        let threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        let client = Self.tmdbClient(configuration, logger: logger)
        let desk = client.map { QueryDesk(client: $0, logger: logger) }
        let peers = try await PeerSide(configuration, state: state, threadPool: threadPool, desk: desk, logger: logger)
        let catalog = Self.catalog(client, peers: peers, logger: logger)
        let news = Self.news(client, peers: peers, configuration: configuration, logger: logger)
        let local = try await LocalSide(configuration, peers: peers, catalog: catalog, logger: logger)
        let members = await peers.trust.memberCount
        logger.notice(
            "peerd serving",
            metadata: [
                "peer": "\(state.identity.peer)", "name": "\(configuration.name)", "port": "\(peers.port)",
                "socket": "\(configuration.socketPath)", "movies": "\(state.replica.list.count)",
                "operations": "\(state.replica.operationCount)", "replayed": "\(state.opened.replayed)",
                "peers": "\(peers.targets.map(\.description))",
                "members": "\(members)", "group-secret": "\(configuration.groupKey != nil)",
                "tmdb": "\(configuration.tmdb.settings.map { "\($0.credential)" } ?? "off")",
                "startup": "\(started.duration(to: .now))",
            ]
        )
        // Later services stop first: dialers and sockets close, then the replica flushes and stops.
        let serviceGroup = ServiceGroup(
            configuration: .init(
                services: [peers.replica, peers.lists] + (desk.map { [$0] } ?? []) + [
                    peers.listener, local.control, peers.dialer,
                ] + peers.reach.services
                    + (catalog.map { [$0] } ?? []) + (news.map { [$0] } ?? []) + local.services,
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await serviceGroup.run()
        try? await threadPool.shutdownGracefully()
        unlink(configuration.socketPath)
        logger.notice("peerd stopped")
    }
}

/// Start-up failures, with what to do about them.
package enum DaemonError: Error, CustomStringConvertible {
    case portInUse(Int)

    package var description: String {
        switch self {
        case .portInUse(let port): "TCP port \(port) is already in use; give peerd another one with --port"
        }
    }
}
