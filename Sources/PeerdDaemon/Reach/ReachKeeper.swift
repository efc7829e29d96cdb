import Logging
import PeerdLoops
import PeerdModel
import PeerdRelay
import PeerdSecurity
import ServiceLifecycle

/// Keeps this daemon in step with the group's relays and its members' announcements (proto/PEER.md,
/// "Relays and reach"): joins the relays the group's setting names, announces this daemon's own
/// addresses and relay id once the group has a relay (again when they change), and hands the
/// dialer each member's announced addresses and relay route. It acts on each commit and, for a
/// changed address (a new DHCP lease, a laptop carried to another house), every few minutes.
actor ReachKeeper: Service {
    private let replica: ReplicaService
    private let presence: RelayPresence
    private let dialer: PeerDialer
    private let identity: PeerID
    private let device: RelayDeviceID
    private let listening: (host: String, port: Int)
    private let logger: Logger
    private var relays: [RelayURL] = []
    private var reaches: [PeerID: PeerReach] = [:]
    /// This machine's addresses as last looked at (not on every commit: a bulk import makes thousands).
    private var addresses: [PeerAddress]?

    /// How often this machine's addresses are looked at again between commits.
    static let addressCheck = Duration.seconds(300)

    init(
        replica: ReplicaService,
        presence: RelayPresence,
        dialer: PeerDialer,
        device: RelayDeviceID,
        listening: (host: String, port: Int),
        logger: Logger
    ) {
        self.replica = replica
        self.presence = presence
        self.dialer = dialer
        self.identity = replica.identity.peer
        self.device = device
        self.listening = listening
        self.logger = logger
    }

    func run() async throws {
        let commits = await replica.vectorUpdates()
        await withDiscardingTaskGroup { group in
            group.addTask {
                while (try? await LoopClock.shared.sleep(for: Self.addressCheck)) != nil {
                    await self.lookAgain()
                }
            }
            for await _ in commits.cancelOnGracefulShutdown() { await apply() }
            group.cancelAll()
        }
    }

    /// Brings the relays joined, this daemon's announcement and the dial targets in line with the
    /// group's operations now.
    func apply() async {
        let snapshot = await replica.snapshot
        let urls = (snapshot.relays?.urls ?? []).compactMap { try? RelayURL.parse($0).get() }
        let relaysChanged = urls != relays
        if relaysChanged {
            relays = urls
            await presence.use(urls)
        }
        if !urls.isEmpty { await announce(current: snapshot.reach(of: identity)) }
        var announced = snapshot.reaches
        announced[identity] = nil
        for (peer, reach) in announced where relaysChanged || reaches[peer] != reach {
            let route = RelayDeviceID(reach.device).map { DialTarget.RelayRoute(device: $0, relays: urls) }
            await dialer.reached(peer, addresses: reach.addresses, route: route)
        }
        reaches = announced
    }

    /// Looks at this machine's addresses again, and announces them if they changed.
    private func lookAgain() async {
        addresses = nil
        await apply()
    }

    /// Appends this daemon's `reach` when what it would say differs from its newest one.
    private func announce(current: PeerReach?) async {
        let addresses = self.addresses ?? LocalAddresses.current(listening: listening.host, port: listening.port)
        self.addresses = addresses
        let mine = PeerReach(addresses: addresses, device: device.description)
        guard mine != current else { return }
        do {
            _ = try await replica.submit(.reach(mine), at: Wallclock.millis())
            logger.info(
                "announced how to reach this peer",
                metadata: ["addresses": "\(addresses.map(\.description))", "device": "\(device)"]
            )
        } catch {
            logger.warning("could not announce how to reach this peer", metadata: ["error": "\(error)"])
        }
    }
}
