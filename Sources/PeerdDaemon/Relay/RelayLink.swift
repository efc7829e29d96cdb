import NIOCore
import NIOPosix
import PeerdRelay
import Synchronization
import SystemPackage

/// One protocol-mode connection to a relay: TCP, TLS with the relay's id checked (``RelayTLS``),
/// then relay messages both ways. Whoever closes it early (a deadline, a ping left unanswered)
/// says why, and that is what the reader is told instead of "closed".
final class RelayLink: Sendable {
    typealias Connection = NIOAsyncChannel<RelayMessage, RelayMessage>
    typealias Messages = NIOAsyncChannelInboundStream<RelayMessage>.AsyncIterator
    typealias Outbound = NIOAsyncChannelOutboundWriter<RelayMessage>

    let connection: Connection
    let relay: RelayURL
    private let reason = Mutex<RelayError?>(nil)

    private init(connection: Connection, relay: RelayURL) {
        self.connection = connection
        self.relay = relay
    }

    /// Connects to `relay` and completes TLS within `timeout`; closed again on any failure.
    static func open(
        _ relay: RelayURL,
        group: any EventLoopGroup,
        tls: RelayTLS,
        timeout: Duration
    ) async throws(RelayError) -> RelayLink {
        let opened: (Connection, EventLoopFuture<RelayDeviceID>)
        do {
            opened = try await ClientBootstrap(group: group)
                .connectTimeout(TimeAmount(timeout))
                .channelOption(.tcpOption(.tcp_nodelay), value: 1)
                .connect(host: relay.host, port: relay.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let handshake = try tls.addHandlers(to: channel, relay: relay, timeout: TimeAmount(timeout))
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(RelayMessageDecoder()))
                        try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(RelayMessageEncoder()))
                        return (try Connection(wrappingChannelSynchronously: channel), handshake)
                    }
                }
        } catch {
            throw .connect(words(error, timeout: timeout))
        }
        do {
            _ = try await opened.1.get()
        } catch {
            // Through the async channel, which must be finished before it goes.
            try? await opened.0.executeThenClose { _, _ in }
            throw RelayError.of(error)
        }
        return RelayLink(connection: opened.0, relay: relay)
    }

    /// Closes the connection; whoever reads it is told `error`. The first reason given stands.
    func close(because error: RelayError) {
        reason.withLock { reason in
            if reason == nil { reason = error }
        }
        connection.channel.close(promise: nil)
    }

    /// Why the connection ended: the reason it was closed for, else what reading it threw.
    func failure(_ error: (any Error)?) -> RelayError {
        if let reason = reason.withLock({ $0 }) { return reason }
        return error.map(RelayError.of) ?? .closed
    }

    /// Sends `message` and returns the relay's answer within `timeout`, answering the relay's pings
    /// on the way. `what` completes "the relay did not …" when the answer is late.
    func request(
        _ message: RelayMessage,
        messages: inout Messages,
        outbound: Outbound,
        within timeout: Duration,
        what: String
    ) async throws(RelayError) -> RelayMessage {
        let channel = connection.channel
        let deadline = channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            self.close(because: .timeout("\(what) within \(TimeAmount(timeout).relayWords)"))
        }
        defer { deadline.cancel() }
        do {
            try await outbound.write(message)
            while let answer = try await messages.next() {
                guard answer == .ping else { return answer }
                try await outbound.write(.pong)
            }
            throw failure(nil)
        } catch {
            throw failure(error)
        }
    }

    /// A failed connect in words: "connection refused", "no answer within 10 s".
    static func words(_ error: any Error, timeout: Duration) -> String {
        switch error {
        case ChannelError.connectTimeout: "no answer within \(TimeAmount(timeout).relayWords)"
        case let error as NIOConnectionError:
            error.connectionErrors.last.map { words($0.error, timeout: timeout) }
                ?? error.dnsAError.map { "its name did not resolve (\($0))" } ?? "\(error)"
        case let error as IOError: Errno(rawValue: error.errnoCode).description.lowercased()
        default: "\(error)"
        }
    }
}
