import NIOCore
import PeerdModel
import PeerdRelay
import PeerdSync
import PeerdTestKit
import PeerdWire

@testable import PeerdDaemon

/// Runs `presence` with `relays` in use while `body` runs, then stops it.
func withPresence(
    _ presence: RelayPresence,
    using relays: [RelayURL],
    _ body: () async throws -> Void
) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await presence.run() }
        defer { group.cancelAll() }
        await presence.use(relays)
        try await body()
    }
}

/// The first relay's record once it is joined with a latency measured; nil if not within `timeout`.
func joined(_ presence: RelayPresence, within timeout: Duration = .seconds(15)) async throws -> RelayRecord? {
    let isJoined = try await waitUntil(presence.changes(), within: timeout) {
        let record = await presence.records(now: Wallclock.millis()).first
        return record?.state == .joined && record?.latencyMs != nil
    }
    return isJoined ? await presence.records(now: Wallclock.millis()).first : nil
}

extension RelayThroughStrelaysrvTests {
    typealias Pipe = NIOAsyncChannel<ByteBuffer, ByteBuffer>

    /// Joins `invitation`'s session as `device`, with peerd's TLS inside (server on the side the
    /// relay made the session's server).
    static func pipe(_ invitation: RelayInvitation, for device: Device, via relay: RelayURL) async throws -> Pipe {
        let tls = try PeerTLS(identity: device.identity)
        let role: PeerConnection.Role = invitation.serverSocket ? .acceptor : .dialer
        return try await device.connector.joinSession(invitation, via: relay, timeout: .seconds(5)) { channel in
            try tls.addHandler(to: channel, role: role)
            return try Pipe(wrappingChannelSynchronously: channel)
        }
    }

    /// The first `count` bytes that come, as text.
    static func hear(_ count: Int, from inbound: NIOAsyncChannelInboundStream<ByteBuffer>) async throws -> String {
        var heard = ByteBuffer()
        for try await var part in inbound {
            heard.writeBuffer(&part)
            if heard.readableBytes >= count { break }
        }
        return String(buffer: heard)
    }
}
