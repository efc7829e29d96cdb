import Logging
import NIOCore
import NIOPosix
import PeerdModel
import PeerdSync
import PeerdWire

#if canImport(Glibc)
import Glibc
#endif

/// How ``PeerDialer`` reaches a target: the seam between when to dial, which the dialer decides,
/// and the network. The daemon's is ``NetworkDialing``; a test's answers as the test says.
protocol Dialing: Sendable {
    /// Reaches one of `addresses` and runs a session there until it ends: what it came to.
    func dial(
        _ addresses: [PeerAddress],
        source: PeerSource,
        expected: PeerID?,
        connectTimeout: Duration,
        logger: Logger
    ) async -> DialTarget.Outcome
}

/// Dialing over TCP and TLS, with a peer session on the connection.
struct NetworkDialing: Dialing {
    let group: any EventLoopGroup
    let sessions: PeerSessionFactory

    private var directory: PeerDirectory { sessions.directory }

    /// Tries each address in order until one connects, and runs the session on it. Each attempt's
    /// result is noted for `peerctl doctor`; `lastError` is its words.
    func dial(
        _ addresses: [PeerAddress],
        source: PeerSource,
        expected: PeerID?,
        connectTimeout: Duration,
        logger: Logger
    ) async -> DialTarget.Outcome {
        var failure = DialTarget.Outcome(error: "no address to dial")
        for address in addresses {
            // Told meanwhile that this daemon's key was removed from the group: no further address is tried.
            if let removal = await sessions.trust.removal { return DialTarget.Outcome(error: removal) }
            let result = DialResult(address: address.description, expected: expected, local: sessions.identity)
            let channel: PeerChannel
            do {
                channel = try await connect(address, timeout: connectTimeout)
            } catch {
                let cause = DialResult.connectFailure(of: error)
                let record = result.connectFailed(cause, at: Wallclock.millis())
                await directory.dialed(record)
                failure = DialTarget.Outcome(error: record.message, refused: cause == .errno(ECONNREFUSED))
                logger.debug("dial failed", metadata: ["address": "\(address)", "error": "\(error)"])
                continue
            }
            let session = await sessions.connection(
                channel,
                role: .dialer,
                address: address.description,
                source: source,
                expected: expected
            )
            .run()
            let record = result.ended(session, at: Wallclock.millis())
            await directory.dialed(record)
            return DialTarget.Outcome(
                peer: session.peer,
                establishedFor: session.establishedFor,
                // An ordinary close is no error; one before the session says how far it got.
                error: session.establishedFor != nil || record.outcome == .ok ? session.error : record.message,
                reachedItself: session.reachedItself
            )
        }
        return failure
    }

    private func connect(_ address: PeerAddress, timeout: Duration) async throws -> PeerChannel {
        let tls = sessions.tls
        return try await ClientBootstrap(group: group)
            .connectTimeout(TimeAmount(timeout))
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelOption(StalledSend.option, value: StalledSend.milliseconds)
            .connect(host: address.host, port: address.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try PeerChannel.wrap(channel, role: .dialer, tls: tls, gate: nil)
                }
            }
    }
}
