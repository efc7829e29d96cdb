import Logging
import NIOCore
import PeerdModel
import PeerdSecurity
import PeerdSync
import PeerdWire

/// What every peer connection shares: the replica, the lists, the directory and the session settings.
struct PeerSessionFactory: Sendable {
    let replica: ReplicaService
    let spaces: ListSpaces
    let directory: PeerDirectory
    let trust: TrustService
    let catalog: CatalogPeers
    let tls: PeerTLS
    let name: String
    let advertisedPort: Int
    let configuration: PeerSession<ContinuousClock.Instant>.Configuration
    let trace: FrameTrace?
    let logger: Logger

    var identity: PeerID { tls.identity.peer }

    func connection(
        _ channel: PeerChannel,
        role: PeerConnection.Role,
        address: String,
        source: PeerSource,
        expected: PeerID? = nil,
        via relay: String? = nil
    ) -> PeerConnection {
        let (identity, name, port) = (self.identity, self.name, advertisedPort)
        let tree: Bool? = configuration.relayTree ? true : nil
        let answers: Bool? = catalog.answers ? true : nil
        return PeerConnection(
            connection: channel.connection,
            mailbox: channel.mailbox,
            executor: EventLoopTaskExecutor(channel.connection.channel.eventLoop),
            role: role,
            address: address,
            source: source,
            expected: expected,
            via: relay,
            identify: { try await PeerTLS.remote(of: channel.connection.channel) },
            admitted: { channel.pending.finish() },
            arriving: channel.arriving,
            replica: replica,
            spaces: spaces,
            directory: directory,
            trust: trust,
            catalog: catalog,
            identity: tls.identity,
            localHello: { vector in
                PeerMessage.Hello(
                    peer: identity,
                    name: name,
                    port: port,
                    vector: vector,
                    time: Wallclock.millis(),
                    tree: tree,
                    catalog: answers,
                    lists: true,
                    news: answers
                )
            },
            configuration: configuration,
            trace: trace,
            logger: logger
        )
    }
}
