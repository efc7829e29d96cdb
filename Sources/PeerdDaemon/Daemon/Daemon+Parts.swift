import Logging
import NIOCore
import NIOPosix
import PeerdCatalog
import PeerdModel
import PeerdSecurity
import PeerdStore
import PeerdWeb
import ServiceLifecycle
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

extension Daemon {
    /// The catalog (TMDB), when this daemon holds a token: it fetches details in the background and
    /// answers `search`; without a token there is none and nothing calls TMDB.
    static func catalog(_ client: TMDBClient?, peers: PeerSide, logger: Logger) -> CatalogService? {
        guard let client else { return nil }
        return CatalogService(
            client: client,
            replica: ReplicaCatalog(replica: peers.replica),
            peer: peers.identity.peer,
            cache: DetailsCache(directory: client.settings.cacheDirectory),
            logger: logger
        )
    }

    /// TMDB's client, when this daemon holds a token: the catalog's, and the desk's that answers
    /// peers' queries.
    static func tmdbClient(_ configuration: DaemonConfiguration, logger: Logger) -> TMDBClient? {
        configuration.tmdb.settings.map {
            TMDBClient(settings: $0, eventLoopGroup: MultiThreadedEventLoopGroup.singleton, logger: logger)
        }
    }

    /// The state directory, the identity key and the replica rebuilt from the log.
    struct OpenedState {
        let directory: StateDirectory
        let identity: PeerIdentity
        /// The replica, from its snapshot and the log's tail or from the whole log.
        let opened: OpenedReplica
        var replica: Replica { opened.replica }
        /// The keys of the profiles that live here.
        let profiles: ProfileKeys

        init(_ configuration: DaemonConfiguration, logger: Logger) throws {
            directory = try StateDirectory(at: FilePath(configuration.stateDirectory), logger: logger)
            identity = try PeerIdentity.loadOrCreate(in: directory.path, logger: logger)
            profiles = try ProfileKeys.load(in: directory.path)
            let empty = Replica(id: identity.peer, name: configuration.name)
            let opened = try OpenedReplica(empty, logPath: directory.logPath, logger: logger)
            if opened.skipped > 0 {
                logger.warning(
                    "skipped operations that break their origin's sequence",
                    metadata: ["count": "\(opened.skipped)"]
                )
            }
            self.opened = opened
        }
    }

    /// Everything that faces other peers: TLS, trust, the replica service, the listener and the dialer.
    struct PeerSide {
        let replica: ReplicaService
        let trust: TrustService
        let directory: PeerDirectory
        let listener: PeerListener
        let dialer: PeerDialer
        /// Relays, and the members' announcements of how to reach them.
        let reach: ReachParts
        let catalog: CatalogPeers
        let identity: PeerIdentity
        /// The profiles that live here, whose keys the replica service signs with.
        let profiles: ProfileBook
        /// The group's lists this machine holds: the group's own (`replica`) and the others.
        let lists: ListSpaces
        let port: Int
        let targets: [PeerAddress]

        init(
            _ configuration: DaemonConfiguration,
            state: OpenedState,
            threadPool: NIOThreadPool,
            desk: QueryDesk?,
            logger: Logger
        ) async throws {
            let group = MultiThreadedEventLoopGroup.singleton
            let tls = try PeerTLS(identity: state.identity)
            trust = try TrustService(
                local: state.identity.peer,
                path: state.directory.trustPath,
                groupKey: configuration.groupKey,
                name: configuration.name,
                logger: logger
            )
            let gate = AdmissionGate()
            let server = try await Self.bindListener(configuration, group: group, tls: tls, gate: gate)
            port = server.channel.localAddress?.port ?? configuration.port
            replica = ReplicaService(state.opened, identity: state.identity, threadPool: threadPool, logger: logger)
            profiles = await ProfileBook(keys: state.profiles, replica: replica)
            lists = try ListSpaces(
                group: replica,
                identity: state.identity,
                state: state.directory,
                name: configuration.name,
                threadPool: threadPool,
                logger: logger
            )
            directory = PeerDirectory(localID: state.identity.peer)
            catalog = CatalogPeers(asker: CatalogAsker(directory: directory), desk: desk)
            let sessions = PeerSessionFactory(
                replica: replica,
                spaces: lists,
                directory: directory,
                trust: trust,
                catalog: catalog,
                tls: tls,
                name: configuration.name,
                advertisedPort: port,
                configuration: configuration.session,
                trace: FrameTrace(environment: configuration.environment),
                logger: logger
            )
            listener = PeerListener(server: server, sessions: sessions, logger: logger)
            targets = Self.targets(configuration, state: state.directory, logger: logger)
            let relays = RelayConnector(group: group, identity: state.identity)
            dialer = PeerDialer(
                initial: targets,
                state: state.directory,
                directory: sessions.directory,
                trust: sessions.trust,
                dialing: NetworkDialing(group: group, sessions: sessions, relays: relays),
                logger: logger
            )
            reach = ReachParts(
                connector: relays,
                sessions: sessions,
                gate: gate,
                dialer: dialer,
                listening: (configuration.listenAddress, port),
                logger: logger
            )
            identity = state.identity
        }

        /// `--peer`s and the config file's, then those `peerctl connect` remembered, each once.
        private static func targets(
            _ configuration: DaemonConfiguration,
            state: StateDirectory,
            logger: Logger
        ) -> [PeerAddress] {
            var remembered: [PeerAddress] = []
            do {
                remembered = try state.loadPeers().compactMap { PeerAddress($0) }
            } catch {
                logger.warning("ignoring remembered peers", metadata: ["error": "\(error)"])
            }
            var seen = Set<PeerAddress>()
            return (configuration.staticPeers + remembered).filter { seen.insert($0).inserted }
        }

        private static func bindListener(
            _ configuration: DaemonConfiguration,
            group: any EventLoopGroup,
            tls: PeerTLS,
            gate: AdmissionGate
        ) async throws -> PeerListener.Server {
            do {
                return try await PeerListener.bind(
                    host: configuration.listenAddress,
                    port: configuration.port,
                    group: group,
                    tls: tls,
                    gate: gate
                )
            } catch let error as IOError where error.errnoCode == EADDRINUSE {
                throw DaemonError.portInUse(configuration.port)
            }
        }
    }

    /// Everything that faces this machine's user: the control socket, the config reloader, mDNS
    /// and systemd.
    struct LocalSide {
        let control: ControlServer
        /// In the order they start; the last stops first.
        let services: [any Service]

        init(_ configuration: DaemonConfiguration, peers: PeerSide, catalog: CatalogService?, logger: Logger)
            async throws
        {
            var info = DaemonInfo(
                identity: peers.identity.peer,
                name: configuration.name,
                port: peers.port,
                listenAddress: configuration.listenAddress,
                stateDir: configuration.stateDirectory,
                socketPath: configuration.socketPath,
                mdns: configuration.mdns,
                tmdb: catalog != nil,
                page: configuration.web.enabled ? WebPage() : nil
            )
            info.tmdbLanguage = configuration.tmdb.language
            let discovery = DiscoveryStatus(localID: peers.identity.peer, enabled: configuration.mdns)
            let door = Self.guestDoor(configuration, peers: peers, logger: logger)
            let devices = await Self.deviceLedger(configuration, logger: logger)
            let responder = ControlResponder(
                replica: peers.replica,
                lists: peers.lists,
                directory: peers.directory,
                dialer: peers.dialer,
                trust: peers.trust,
                catalog: catalog.map(TMDBCatalog.init),
                asker: peers.catalog.asker,
                shelf: CatalogShelf(directory: configuration.tmdbCacheDirectory),
                discovery: discovery,
                info: info,
                guests: door,
                imports: ImportJournals(stateDirectory: FilePath(configuration.stateDirectory)),
                profiles: peers.profiles,
                devices: devices,
                relays: peers.reach.desk
            )
            control = try await ControlServer(
                socket: ControlSocketPath(path: configuration.socketPath, ownsDirectory: configuration.socketIsDefault),
                group: MultiThreadedEventLoopGroup.singleton,
                responder: responder,
                logger: logger
            )
            let reloader = await ConfigReloader(
                path: configuration.configPath,
                loaded: configuration.config,
                levels: configuration.logLevels,
                dialer: peers.dialer,
                logger: logger
            )
            let keeper = GroupKeeper(
                replica: peers.replica,
                trust: peers.trust,
                directory: peers.directory,
                secret: configuration.groupFingerprint,
                secretFile: StateDirectory.secretFingerprint(in: FilePath(configuration.stateDirectory)),
                devices: devices,
                logger: logger
            )
            services =
                [reloader, keeper] + Self.web(configuration, responder: responder, logger: logger)
                + (door.map { [$0] } ?? [])
                + Self.deviceDoor(configuration, ledger: devices, responder: responder, logger: logger)
                + Self.desktop(configuration, peers: peers, page: info.page, logger: logger)
                + Self.discovery(configuration, peers: peers, status: discovery, logger: logger)
                + Self.systemd(configuration, peers: peers, logger: logger)
        }

        /// The page, on the daemon's event loop group, answered by the same responder as the socket.
        private static func web(_ configuration: DaemonConfiguration, responder: ControlResponder, logger: Logger)
            -> [any Service]
        {
            guard let page = responder.info.page else { return [] }
            let settings = WebSettings(
                addresses: configuration.web.addresses,
                port: configuration.web.port,
                tokenPath: FilePath(configuration.stateDirectory).appending("web.token")
            )
            return [
                WebService(
                    settings: settings,
                    page: page,
                    backend: ControlWebBackend(responder: responder),
                    eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
                    logger: logger
                )
            ]
        }

        /// The guest door of this peer's picks, on the LAN address while one is open; nil with `--no-guests`.
        private static func guestDoor(_ configuration: DaemonConfiguration, peers: PeerSide, logger: Logger)
            -> GuestDoor<ReplicaGuestDesk>?
        {
            guard configuration.guests.enabled else { return nil }
            let directory = peers.directory
            let picks = PickDesk(
                replica: peers.replica,
                roster: MemberRoster(trust: peers.trust, me: peers.identity.peer, myName: configuration.name),
                connected: { await directory.connectedPeers }
            )
            return GuestDoor(
                settings: .init(
                    address: configuration.guests.address,
                    port: configuration.guests.port,
                    keyPath: FilePath(configuration.stateDirectory).appending("guest.key")
                ),
                desk: ReplicaGuestDesk(picks: picks, spaces: peers.lists),
                eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
                logger: logger
            )
        }

        /// The linked devices kept in the state directory; nil with `--no-devices`, or when their file
        /// can't be read (said in the log).
        private static func deviceLedger(_ configuration: DaemonConfiguration, logger: Logger) async -> DeviceLedger? {
            guard configuration.devices.enabled else { return nil }
            let path = FilePath(configuration.stateDirectory).appending("devices.json")
            do {
                return try await DeviceLedger.load(at: path, logger: logger)
            } catch {
                logger.error("linked devices are off", metadata: ["reason": "\(error)"])
                return nil
            }
        }

        /// The door of linked devices, on the LAN address while one is linked or a link is pending.
        private static func deviceDoor(
            _ configuration: DaemonConfiguration,
            ledger: DeviceLedger?,
            responder: ControlResponder,
            logger: Logger
        ) -> [any Service] {
            guard let ledger else { return [] }
            return [
                DeviceDoor(
                    settings: .init(
                        address: configuration.devices.address,
                        port: configuration.devices.port,
                        machine: configuration.name
                    ),
                    ledger: ledger,
                    backend: ControlWebBackend(responder: responder),
                    eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
                    logger: logger
                )
            ]
        }

        /// Last but one in the group, so among the first to stop: the LAN hears our goodbye before
        /// sockets close.
        private static func discovery(
            _ configuration: DaemonConfiguration,
            peers: PeerSide,
            status: DiscoveryStatus,
            logger: Logger
        ) -> [any Service] {
            guard configuration.mdns else { return [] }
            return [
                MDNSDiscovery(
                    identity: peers.identity.peer,
                    name: configuration.name,
                    port: peers.port,
                    dialer: peers.dialer,
                    status: status,
                    logger: logger
                )
            ]
        }

        /// Built once the store is open and both sockets listen, so its READY=1 is true; last in the
        /// group, so STOPPING=1 goes out before anything else winds down. Absent without NOTIFY_SOCKET.
        private static func systemd(_ configuration: DaemonConfiguration, peers: PeerSide, logger: Logger)
            -> [any Service]
        {
            guard let notifier = SystemdNotifier(environment: configuration.environment) else { return [] }
            let (directory, replica) = (peers.directory, peers.replica)
            return [
                SystemdService(
                    notifier: notifier,
                    eventLoop: MultiThreadedEventLoopGroup.singleton.next(),
                    logger: logger
                ) { ring in
                    let commits = await replica.vectorUpdates()
                    let sessions = await directory.sessionChanges()
                    await withDiscardingTaskGroup { group in
                        group.addTask { for await _ in commits { await ring() } }
                        group.addTask { for await _ in sessions { await ring() } }
                    }
                } counts: {
                    .init(peers: await directory.connectedCount, movies: await replica.movieCount)
                }
            ]
        }
    }
}
