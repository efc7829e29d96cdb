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
            } catch let error as ChannelError where attempt < 3 {
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
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
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
        let nonce = (0..<32).map { _ in UInt8.random(in: 0...255) }
        let raw = channel.channel
        return try await channel.executeThenClose { inbound, outbound in
            var frames = inbound.makeAsyncIterator()
            try await outbound.write(ByteBuffer(bytes: RawConnection.frame(AdmissionRecord.offer(nonce: nonce))))
            guard let offer = try await frames.next() else {
                return Exchange(admitted: false, daemon: .init(peer: "?"), frames: [], closed: true)
            }
            guard let certificate = try await raw.nioSSL_peerCertificate().get() else {
                throw InsiderError.noCertificate
            }
            let daemon = Fingerprint.peer(ofPublicKeyDER: try certificate.extractPublicKey().toSPKIBytes())
            var handshake = AdmissionHandshake(
                endpoints: .init(
                    local: identity.peer,
                    localCertificate: identity.certificateDER,
                    remote: daemon,
                    remoteCertificate: try certificate.toDERBytes()
                ),
                policy: AdmissionPolicy(members: [daemon], groupKey: GroupSecret.key(Array(groupSecret.utf8))),
                expected: nil,
                nonce: nonce
            )
            for case .send(let bytes) in handshake.received(Array(offer.readableBytesView)) {
                try await outbound.write(ByteBuffer(bytes: RawConnection.frame(bytes)))
            }
            guard let proof = try await frames.next() else {
                return Exchange(admitted: false, daemon: .init(peer: daemon.rawValue), frames: [], closed: true)
            }
            _ = handshake.received(Array(proof.readableBytesView))
            for chunk in payload(identity.peer.rawValue) {
                try await outbound.write(ByteBuffer(bytes: chunk))
            }
            var exchange = Exchange(admitted: true, daemon: .init(peer: daemon.rawValue), frames: [], closed: false)
            let deadline = ContinuousClock.now + timeout
            let reader = Task {
                var collected: [ByteBuffer] = []
                do {
                    while let frame = try await frames.next() { collected.append(frame) }
                } catch {}
                return collected
            }
            let timer = Task {
                try await Task.sleep(until: deadline)
                raw.close(promise: nil)
            }
            let collected = await reader.value
            exchange.closed = !timer.isCancelled && ContinuousClock.now < deadline
            timer.cancel()
            for frame in collected {
                if let refusal = AdmissionRecord.parseRefusal(frame.readableBytesView) {
                    exchange.admitted = false
                    exchange.refusal = refusal
                    continue
                }
                if let object = try? JSONSerialization.jsonObject(with: Data(frame.readableBytesView)) as? [String: Any]
                {
                    exchange.frames.append(object)
                }
            }
            return exchange
        }
    }
}

enum InsiderError: Error {
    case noCertificate
}
