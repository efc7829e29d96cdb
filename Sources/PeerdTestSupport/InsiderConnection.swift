import Crypto
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import PeerdModel
package import PeerdSecurity
import PeerdWire

/// A hand-driven peer that knows the group secret: it completes TLS 1.3 and the admission records
/// like a member would, then sends whatever bytes a test gives it — input past the point where only
/// members get, which the JSON decoder and the session must still refuse.
package enum InsiderConnection {
    package struct Exchange: @unchecked Sendable {
        // @unchecked: the frames are JSONSerialization's plain values, made and read by one task.
        /// Whether the daemon admitted us (no refusal record, the connection stayed up).
        package var admitted: Bool
        /// The daemon's id, from its certificate.
        package var daemon: PeerIdentityFacts
        /// Every JSON frame the daemon sent after admission, in order.
        package var frames: [[String: Any]]
        /// The daemon closed the connection (rather than our time running out).
        package var closed: Bool
        package var refusal: AdmissionRefusal?
    }

    package struct PeerIdentityFacts: Sendable {
        package var peer: String
    }

    /// Connects to `127.0.0.1:port` as `identity` (a fresh one when nil), is admitted with
    /// `groupSecret`, sends `payload(ourID)` in order, and reads until the daemon closes or `timeout`
    /// passes.
    ///
    /// A connection closed before anything was exchanged is tried again, up to three times: with the
    /// whole suite running on a 2-core machine, TLS and admission sometimes take longer than the
    /// daemon's 5 s admission deadline (the retry message prints the time it took).
    package static func exchange(
        port: Int,
        groupSecret: String,
        identity: PeerIdentity? = nil,
        timeout: Duration = .seconds(8),
        payload: @escaping @Sendable (_ ourID: String) -> [[UInt8]]
    ) async throws -> Exchange {
        let identity = try identity ?? PeerIdentity.generate(name: "insider")
        var attempt = 1
        while true {
            let started = ContinuousClock.now
            do {
                return try await exchangeOnce(
                    port: port,
                    groupSecret: groupSecret,
                    identity: identity,
                    timeout: timeout,
                    payload: payload
                )
            } catch  where attempt < 3 && (error is ChannelError || error is ChannelPipelineError) {
                // Closed before the exchange: the channel, or its TLS handler already removed.
                print(
                    "insider connection failed (\(error)) after \(ContinuousClock.now - started); attempt \(attempt + 1)"
                )
                attempt += 1
            }
        }
    }

    private static func exchangeOnce(
        port: Int,
        groupSecret: String,
        identity: PeerIdentity,
        timeout: Duration,
        payload: @escaping @Sendable (_ ourID: String) -> [[UInt8]]
    ) async throws -> Exchange {
        let channel = try await connect(port: port, identity: identity)
        let nonce = (0..<32).map { _ in UInt8.random(in: 0...255) }
        let raw = channel.channel
        return try await channel.executeThenClose { inbound, outbound in
            var frames = inbound.makeAsyncIterator()
            try await outbound.write(ByteBuffer(bytes: RawConnection.frame(AdmissionRecord.offer(nonce: nonce))))
            guard let offer = try await frames.next() else {
                return Exchange(admitted: false, daemon: .init(peer: "?"), frames: [], closed: true)
            }
            let groupKey = GroupSecret.key(Array(groupSecret.utf8))
            let started = try await Self.handshake(on: raw, as: identity, groupKey: groupKey, nonce: nonce)
            guard let started else { throw InsiderError.noCertificate }
            let daemon = started.daemon
            var handshake = started.handshake
            for case .send(let bytes) in handshake.received(Array(offer.readableBytesView)) {
                try await outbound.write(ByteBuffer(bytes: RawConnection.frame(bytes)))
            }
            guard let proof = try await frames.next() else {
                return Exchange(admitted: false, daemon: .init(peer: daemon.rawValue), frames: [], closed: true)
            }
            _ = handshake.received(Array(proof.readableBytesView))
            do {
                for chunk in payload(identity.peer.rawValue) {
                    try await outbound.write(ByteBuffer(bytes: chunk))
                }
            } catch ChannelError.ioOnClosedChannel {
                // The daemon refused and closed before the payload went out (a wrong secret is refused
                // as soon as our proof arrives): what it said before closing is read below.
            }
            let (collected, closed) = await collect(&frames, until: ContinuousClock.now + timeout, closing: raw)
            return exchange(daemon: daemon, collected: collected, closed: closed)
        }
    }

    /// TLS 1.3 to the daemon as `identity`, accepting its certificate (it is checked by admission).
    static func connect(port: Int, identity: PeerIdentity) async throws -> NIOAsyncChannel<
        ByteBuffer, ByteBuffer
    > {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateChain = [
            .certificate(try NIOSSLCertificate(bytes: identity.certificateDER, format: .der))
        ]
        configuration.privateKey = .privateKey(
            try NIOSSLPrivateKey(bytes: Array(identity.privateKeyPEM.utf8), format: .pem)
        )
        configuration.minimumTLSVersion = .tlsv13
        configuration.certificateVerification = .noHostnameVerification
        let context = try NIOSSLContext(configuration: configuration)
        return try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        try NIOSSLClientHandler(context: context, serverHostname: nil) { _, promise in
                            promise.succeed(.certificateVerified)
                        }
                    )
                    // Frames in; out, raw bytes (the payload may be anything but well-formed frames).
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(FrameDecoder()))
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
    }

    /// Every frame until the daemon closes, or until `deadline`, when we close; and whether the
    /// daemon was the one to close.
    private static func collect(
        _ frames: inout NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator,
        until deadline: ContinuousClock.Instant,
        closing channel: any Channel
    ) async -> (frames: [ByteBuffer], closedByDaemon: Bool) {
        await withTaskGroup { group in
            group.addTask {
                guard (try? await Task.sleep(until: deadline)) != nil else { return }
                channel.close(promise: nil)
            }
            var collected: [ByteBuffer] = []
            do {
                while let frame = try await frames.next() { collected.append(frame) }
            } catch {}
            let closedByDaemon = ContinuousClock.now < deadline
            group.cancelAll()
            return (collected, closedByDaemon)
        }
    }

    private static func exchange(daemon: PeerID, collected: [ByteBuffer], closed: Bool) -> Exchange {
        var exchange = Exchange(admitted: true, daemon: .init(peer: daemon.rawValue), frames: [], closed: closed)
        for frame in collected {
            if let refusal = AdmissionRecord.parseRefusal(frame.readableBytesView) {
                exchange.admitted = false
                exchange.refusal = refusal
                continue
            }
            if let object = try? JSONSerialization.jsonObject(with: Data(frame.readableBytesView)) as? [String: Any] {
                exchange.frames.append(object)
            }
        }
        return exchange
    }

    /// The admission handshake of `identity` with the daemon at the other end of `channel`, whose
    /// TLS certificate names it (its id, and the handshake that trusts it); nil without a certificate.
    static func handshake(
        on channel: any Channel,
        as identity: PeerIdentity,
        groupKey: SymmetricKey?,
        nonce: [UInt8]
    ) async throws -> (daemon: PeerID, handshake: AdmissionHandshake)? {
        guard let certificate = try await channel.nioSSL_peerCertificate().get() else { return nil }
        let daemon = Fingerprint.peer(ofPublicKeyDER: try certificate.extractPublicKey().toSPKIBytes())
        let handshake = AdmissionHandshake(
            endpoints: .init(
                local: identity.peer,
                localCertificate: identity.certificateDER,
                remote: daemon,
                remoteCertificate: try certificate.toDERBytes()
            ),
            policy: AdmissionPolicy(members: [daemon], groupKey: groupKey),
            expected: nil,
            nonce: nonce
        )
        return (daemon, handshake)
    }
}

enum InsiderError: Error {
    case noCertificate
}
