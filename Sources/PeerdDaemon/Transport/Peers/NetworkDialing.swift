import Logging
import NIOCore
import NIOPosix
import PeerdLoops
import PeerdModel
import PeerdRelay
import PeerdSync
import PeerdWire

#if canImport(Glibc)
import Glibc
#endif

/// How ``PeerDialer`` reaches a target: the seam between when to dial, which the dialer decides,
/// and the network. The daemon's is ``NetworkDialing``; a test's answers as the test says.
protocol Dialing: Sendable {
    /// Reaches one of `addresses`, else the peer through one of `relay`'s relays, and runs a session
    /// there until it ends: what it came to.
    func dial(
        _ addresses: [PeerAddress],
        relay: DialTarget.RelayRoute?,
        source: PeerSource,
        expected: PeerID?,
        connectTimeout: Duration,
        logger: Logger
    ) async -> DialTarget.Outcome
}

/// Dialing over TCP and TLS, with a peer session on the connection: straight to the peer first,
/// then through a relay, which only forwards the TLS bytes (proto/PEER.md, "Relays and reach").
struct NetworkDialing: Dialing {
    let group: any EventLoopGroup
    let sessions: PeerSessionFactory
    /// Asks relays for sessions; nil in a daemon without relays (tests).
    let relays: RelayConnector?

    private var directory: PeerDirectory { sessions.directory }

    /// Tries each address in order until one connects, then each relay, and runs the session on
    /// what connected. Each attempt's result is noted for `peerctl doctor`; `lastError` is its words.
    func dial(
        _ addresses: [PeerAddress],
        relay: DialTarget.RelayRoute?,
        source: PeerSource,
        expected: PeerID?,
        connectTimeout: Duration,
        logger: Logger
    ) async -> DialTarget.Outcome {
        var failure = DialTarget.Outcome(error: "no address to dial")
        for (index, address) in addresses.enumerated() {
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
            let ended = await outcome(of: session, result)
            // An address another machine announced may be one this machine has too (Docker's
            // 172.17.0.1 on both, a LAN range two houses share): one that reached someone else, or
            // this daemon, is passed over while another address or a relay remains.
            let more = index < addresses.count - 1 || relay != nil
            guard more, Self.reachedSomeoneElse(session, expected: expected) else { return ended }
            logger.debug("passed over an address of someone else", metadata: ["address": "\(address)"])
            failure = DialTarget.Outcome(error: ended.error)
        }
        guard let relay, let relays, await sessions.trust.removal == nil else { return failure }
        var lied = false
        for (index, url) in relay.relays.enumerated() {
            let through = await dial(relay.device, via: url, with: relays, source: source, expected: expected)
            // A relay that lied says more than one after it that gave no session: its words stay.
            if !lied || through.session != nil { failure = through.outcome }
            guard let session = through.session else {
                logger.debug(
                    "relay gave no session",
                    metadata: ["relay": "\(url.address)", "error": "\(failure.error ?? "")"]
                )
                continue
            }
            // A relay that put the session through to someone else (it lied) is passed over as
            // such an address is, while another relay remains.
            guard index < relay.relays.count - 1, Self.reachedSomeoneElse(session, expected: expected) else {
                return through.outcome
            }
            lied = true
            logger.debug("passed over a relay that reached someone else", metadata: ["relay": "\(url.address)"])
        }
        return failure
    }

    /// Whether a session that never got going reached this daemon itself, or a peer other than
    /// the one expected: the address is someone else's here, or the relay lied about the session.
    static func reachedSomeoneElse(_ session: ConnectionOutcome, expected: PeerID?) -> Bool {
        guard session.establishedFor == nil else { return false }
        if session.reachedItself { return true }
        guard let expected, let reached = session.peer else { return false }
        return reached != expected
    }

    /// Asks `url` for a session with `device` and runs the peer session inside it; `session` is
    /// nil when the relay gave none.
    private func dial(
        _ device: RelayDeviceID,
        via url: RelayURL,
        with relays: RelayConnector,
        source: PeerSource,
        expected: PeerID?
    ) async -> (session: ConnectionOutcome?, outcome: DialTarget.Outcome) {
        var result = DialResult(address: "relay \(url.address)", expected: expected, local: sessions.identity)
        result.throughRelay = true
        let invitation: RelayInvitation
        let channel: PeerChannel
        do {
            (invitation, channel) = try await session(with: device, via: url, relays: relays)
        } catch {
            let record = result.connectFailed(.other("\(error)"), at: Wallclock.millis())
            await directory.dialed(record)
            return (nil, DialTarget.Outcome(error: record.message))
        }
        let session = await sessions.relayedConnection(
            channel,
            invitation,
            via: url,
            source: source,
            expected: expected
        )
        .run()
        return (session, await outcome(of: session, result))
    }

    /// A session through `url` with `device`, with TLS and frames on it. A relay that answers
    /// "already connected" to the join (strelaysrv does when both ends join at the same instant)
    /// has dropped that session's key: a new one is asked for, once, after a short pause.
    private func session(
        with device: RelayDeviceID,
        via url: RelayURL,
        relays: RelayConnector
    ) async throws -> (RelayInvitation, PeerChannel) {
        for attempt in 1...2 {
            let invitation = try await relays.invitation(
                to: device,
                via: url,
                timeout: PeerSessionFactory.relayTimeout
            )
            do {
                let channel = try await sessions.relayedChannel(invitation, via: url, connector: relays, gate: nil)
                return (invitation, channel)
            } catch RelayError.refused(RelayMessage.alreadyConnected, _) where attempt == 1 {
                try await LoopClock.shared.sleep(for: .milliseconds(Int.random(in: 100...300)))
            }
        }
        throw RelayError.refused(code: RelayMessage.alreadyConnected, message: "already connected")
    }

    /// What a session that ran came to, noted for `peerctl doctor`.
    private func outcome(of session: ConnectionOutcome, _ result: DialResult) async -> DialTarget.Outcome {
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
