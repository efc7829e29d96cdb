package import Logging
import NIOCore
import NIOPosix
import PeerdModel
import PeerdSecurity
import PeerdStore
import PeerdWire
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
        let state = try StateDirectory(at: FilePath(configuration.stateDirectory), logger: logger)
        let keys = try PeerIdentity.loadOrCreate(in: state.path, logger: logger)
        let identity = keys.peer
        var replica = Replica(id: identity, name: configuration.name)
        var skipped = 0
        // Each operation goes into the replica as it is read: no array of all of them in between.
        let (log, _, _) = try OperationLog.open(at: state.logPath, logger: logger) { operation in
            if !replica.replay(operation) { skipped += 1 }
        }
        if skipped > 0 {
            logger.warning("skipped operations that break their origin's sequence", metadata: ["count": "\(skipped)"])
        }
        let threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        let group = MultiThreadedEventLoopGroup.singleton

        let tls = try PeerTLS(identity: keys)
        let trust = try TrustService(
            local: identity,
            path: state.trustPath,
            groupKey: configuration.groupKey,
            logger: logger
        )
        let server = try await bindListener(configuration, group: group, tls: tls)
        let port = server.channel.localAddress?.port ?? configuration.port
        let replicaService = ReplicaService(
            replica: replica,
            identity: keys,
            store: PooledOperationLog(log: log, threadPool: threadPool),
            logger: logger
        )
        let directory = PeerDirectory(localID: identity)
        let sessions = PeerSessionFactory(
            replica: replicaService,
            directory: directory,
            trust: trust,
            tls: tls,
            name: configuration.name,
            advertisedPort: port,
            configuration: configuration.session,
            trace: FrameTrace(environment: configuration.environment),
            logger: logger
        )
        let listener = PeerListener(server: server, sessions: sessions, logger: logger)
        var remembered: [PeerAddress] = []
        do {
            remembered = try state.loadPeers().compactMap { PeerAddress($0) }
        } catch {
            logger.warning("ignoring remembered peers", metadata: ["error": "\(error)"])
        }
        let targets = uniqued(configuration.staticPeers + remembered)
        let dialer = PeerDialer(initial: targets, state: state, group: group, sessions: sessions, logger: logger)
        let info = DaemonInfo(
            identity: identity,
            name: configuration.name,
            port: port,
            stateDir: configuration.stateDirectory,
            socketPath: configuration.socketPath,
            mdns: configuration.mdns
        )
        let responder = ControlResponder(
            replica: replicaService,
            directory: directory,
            dialer: dialer,
            trust: trust,
            info: info
        )
        let control = try await ControlServer(
            socket: ControlSocketPath(path: configuration.socketPath, ownsDirectory: configuration.socketIsDefault),
            group: group,
            responder: responder,
            logger: logger
        )
        // Last in the group, so first to stop: the LAN hears our goodbye before sockets close.
        let discovery: [any Service] =
            configuration.mdns
            ? [MDNSDiscovery(identity: identity, name: configuration.name, port: port, dialer: dialer, logger: logger)]
            : []
        let reloader = await ConfigReloader(
            path: configuration.configPath,
            loaded: configuration.config,
            levels: configuration.logLevels,
            dialer: dialer,
            logger: logger
        )
        // Built once the store is open and both sockets listen, so its READY=1 is true; last in the
        // group, so STOPPING=1 goes out before anything else winds down. Absent without NOTIFY_SOCKET.
        let systemd: [any Service] =
            SystemdNotifier(environment: configuration.environment).map { notifier in
                [
                    SystemdService(notifier: notifier, logger: logger) {
                        .init(peers: await directory.connectedCount, movies: await replicaService.movieCount)
                    }
                ]
            } ?? []
        let members = await trust.memberCount
        logger.notice(
            "peerd serving",
            metadata: [
                "peer": "\(identity)", "name": "\(configuration.name)", "port": "\(port)",
                "socket": "\(configuration.socketPath)", "movies": "\(replica.list.count)",
                "operations": "\(replica.operationCount)", "peers": "\(targets.map(\.description))",
                "members": "\(members)", "group-secret": "\(configuration.groupKey != nil)",
                "startup": "\(started.duration(to: .now))",
            ]
        )
        // Later services stop first: dialers and sockets close, then the replica flushes and stops.
        let serviceGroup = ServiceGroup(
            configuration: .init(
                services: [replicaService, listener, control, dialer, reloader] + discovery + systemd,
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await serviceGroup.run()
        try? await threadPool.shutdownGracefully()
        unlink(configuration.socketPath)
        logger.notice("peerd stopped")
    }

    private static func bindListener(
        _ configuration: DaemonConfiguration,
        group: any EventLoopGroup,
        tls: PeerTLS
    ) async throws -> PeerListener.Server {
        do {
            return try await PeerListener.bind(
                host: configuration.listenAddress,
                port: configuration.port,
                group: group,
                tls: tls,
                gate: AdmissionGate()
            )
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw DaemonError.portInUse(configuration.port)
        }
    }

    private static func uniqued(_ addresses: [PeerAddress]) -> [PeerAddress] {
        var seen = Set<PeerAddress>()
        return addresses.filter { seen.insert($0).inserted }
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
