import Logging
import PeerdDiscovery
import PeerdModel
import ServiceLifecycle

/// Announces this peer on the LAN and hands the peers mDNS finds to the dialer. Runs the Avahi
/// bridge; without Avahi (or D-Bus) it warns once and peerd carries on with static peers, and it
/// picks up by itself when Avahi starts or restarts.
final class MDNSDiscovery: Service {
    private let identity: PeerID
    private let name: String
    private let port: Int
    private let dialer: PeerDialer
    /// What `peerctl doctor` is told about discovery.
    private let status: DiscoveryStatus
    private let logger: Logger

    init(identity: PeerID, name: String, port: Int, dialer: PeerDialer, status: DiscoveryStatus, logger: Logger) {
        self.identity = identity
        self.name = name
        self.port = port
        self.dialer = dialer
        self.status = status
        self.logger = logger
    }

    func run() async throws {
        let txt = ServiceTXT(peer: identity, name: name)
        let bridge = AvahiBridge(name: name, port: port, txt: txt.entries)
        guard bridge.start() else {
            status.apply(.unavailable("could not start Avahi's event loop"))
            logger.warning("mDNS discovery is off: Avahi's client could not start; static peers still work")
            // Returning would end the whole service group (and peerd): wait for shutdown instead.
            try? await gracefulShutdown()
            return
        }
        status.bridge(resolveAgain: { bridge.resolveHostNameAgain() })
        await withGracefulShutdownHandler {
            await follow(bridge.events)
        } onGracefulShutdown: {
            self.status.bridge(resolveAgain: nil)
            bridge.stop()
        }
    }

    /// Takes Avahi's events until the bridge stops: notes them for `diagnose`, logs them, and hands
    /// the peers found and lost to the dialer.
    private func follow(_ events: AsyncStream<AvahiEvent>) async {
        var peers = DiscoveredPeers(localID: identity)
        var waiting = false
        for await event in events {
            status.apply(event)
            log(event, waiting: &waiting)
            let (changes, ignored) = peers.apply(event)
            if let ignored { logger.info("ignoring an mDNS service", metadata: ["reason": "\(ignored)"]) }
            for change in changes {
                switch change {
                case .found(let peer, let name, let addresses):
                    await dialer.discovered(peer, name: name, addresses: addresses)
                case .lost(let peer): await dialer.lost(peer)
                }
            }
        }
    }

    private func log(_ event: AvahiEvent, waiting: inout Bool) {
        switch event {
        case .unavailable(let reason) where !waiting, .connecting(let reason) where !waiting:
            waiting = true
            logger.warning(
                "mDNS discovery is waiting for Avahi; static peers still work",
                metadata: ["reason": "\(reason)"]
            )
        case .running where waiting:
            waiting = false
            logger.notice("Avahi is available; announcing and browsing")
        case .published(let name):
            logger.info("announced on the LAN", metadata: ["service": "\(name)", "type": "\(AvahiBridge.serviceType)"])
        case .renamed(let from, let to):
            logger.notice(
                "service name taken on the LAN; announcing under another",
                metadata: ["from": "\(from)", "to": "\(to)"]
            )
        case .publishFailed(let reason), .browseFailed(let reason):
            logger.warning("mDNS problem", metadata: ["reason": "\(reason)"])
        default:
            break
        }
    }
}
