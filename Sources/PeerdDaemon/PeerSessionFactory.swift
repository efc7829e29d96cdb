import Logging
import NIOCore
import PeerdModel
import PeerdSync
import PeerdWire

/// What every peer connection shares: the replica, the directory and the session settings.
struct PeerSessionFactory: Sendable {
    let replica: ReplicaService
    let directory: PeerDirectory
    let identity: PeerID
    let name: String
    let advertisedPort: Int
    let configuration: PeerSession<ContinuousClock.Instant>.Configuration
    let logger: Logger

    func connection(
        _ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>,
        role: PeerSession<ContinuousClock.Instant>.Role,
        address: String,
        source: PeerRecord.Source
    ) -> PeerConnection {
        let (identity, name, port) = (self.identity, self.name, advertisedPort)
        return PeerConnection(
            channel: channel,
            role: role,
            address: address,
            source: source,
            replica: replica,
            directory: directory,
            localHello: { vector in PeerMessage.Hello(peer: identity, name: name, port: port, vector: vector) },
            configuration: configuration,
            logger: logger
        )
    }
}
