import NIOCore
import PeerdLoops
import PeerdRelay
import Synchronization

/// One stay in a relay's permanent mode, from the join to the connection's end: join, then
/// answer the relay's pings, ping it every `pingInterval` (timing its pong), and pass on each
/// invitation. A ping still unanswered when the next is due ends the stay: the relay is gone
/// even if TCP has not noticed.
struct RelayStay: Sendable {
    let link: RelayLink
    let pingInterval: Duration
    let joinTimeout: Duration
    /// The relay accepted the join.
    let joined: @Sendable () -> Void
    /// A ping's round trip.
    let measured: @Sendable (Duration) -> Void
    let invited: @Sendable (RelayInvitation) -> Void

    /// Runs until the connection ends; cancelling it closes the connection. Why it ended, and
    /// when the relay accepted the join if it did.
    func run() async -> (error: RelayError, joinedAt: ContinuousClock.Instant?) {
        var joinedAt: ContinuousClock.Instant?
        do {
            try await link.connection.executeThenClose { inbound, outbound in
                var messages = inbound.makeAsyncIterator()
                try await join(messages: &messages, outbound: outbound)
                joinedAt = .now
                joined()
                let pings = PingWatch()
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { await ping(outbound, pings) }
                    defer { group.cancelAll() }
                    while let message = try await messages.next() {
                        try await handle(message, outbound: outbound, pings: pings)
                    }
                }
            }
            return (link.failure(nil), joinedAt)
        } catch {
            return (link.failure(error), joinedAt)
        }
    }

    private func join(messages: inout RelayLink.Messages, outbound: RelayLink.Outbound) async throws {
        let answer = try await link.request(
            .joinRelay(token: link.relay.token ?? ""),
            messages: &messages,
            outbound: outbound,
            within: joinTimeout,
            what: "answer the join"
        )
        switch answer {
        case .response(RelayMessage.success, _): return
        case .response(let code, let message): throw RelayError.refused(code: code, message: message)
        case .relayFull: throw RelayError.full
        default: throw RelayError.unexpected("a message of type \(answer.type) for a join")
        }
    }

    private func handle(_ message: RelayMessage, outbound: RelayLink.Outbound, pings: PingWatch) async throws {
        switch message {
        case .ping: try await outbound.write(.pong)
        case .pong: if let roundTrip = pings.answered() { measured(roundTrip) }
        case .sessionInvitation(let invitation): invited(try RelayInvitation(invitation, relay: link.relay))
        case .relayFull: throw RelayError.full
        default: throw RelayError.unexpected("a message of type \(message.type) while joined")
        }
    }

    private func ping(_ outbound: RelayLink.Outbound, _ pings: PingWatch) async {
        while !Task.isCancelled {
            guard pings.send() else {
                let interval = TimeAmount(pingInterval).relayWords
                return link.close(because: .timeout("answer a ping within \(interval)"))
            }
            do {
                try await outbound.write(.ping)
            } catch {
                return link.close(because: RelayError.of(error))
            }
            guard (try? await LoopClock.shared.sleep(for: pingInterval)) != nil else { return }
        }
    }
}

/// The ping in flight: when it was sent, so that its pong gives the round trip.
final class PingWatch: Sendable {
    private let sentAt = Mutex<ContinuousClock.Instant?>(nil)

    /// Notes a ping sent now; false (and nothing noted) while the last one is unanswered.
    func send() -> Bool {
        sentAt.withLock { sentAt in
            guard sentAt == nil else { return false }
            sentAt = .now
            return true
        }
    }

    /// The round trip of the ping in flight; nil for a pong nobody asked for.
    func answered() -> Duration? {
        sentAt.withLock { sentAt in
            defer { sentAt = nil }
            return sentAt?.duration(to: .now)
        }
    }
}
