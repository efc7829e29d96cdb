import Logging
import NIOCore
import PeerdLoops
import PeerdModel
import PeerdRelay
import PeerdSync

extension RelayPresence {
    /// Tries `url` again and again, with backoff between tries, until cancelled (the relay is left,
    /// or the service stops).
    func joinLoop(_ url: RelayURL, generation: Int) async {
        var logger = self.logger
        logger[metadataKey: "relay"] = "\(url.address)"
        var backoff = timing.backoff
        // Tries that failed in a row: the first is a warning, the ones after it (a relay down for
        // hours, tried every 30 s) are for debugging.
        var failures = 0
        while !Task.isCancelled {
            update(url, generation: generation) { $0.joining() }
            let (error, joinedAt) = await stay(at: url, generation: generation, logger: logger)
            guard !Task.isCancelled else { return }
            let delay = backoff.next(after: joinedAt?.duration(to: .now))
            let retryAt = Wallclock.millis() + Int64(delay / .milliseconds(1))
            update(url, generation: generation) { $0.failed(error, retryAt: retryAt) }
            failures = joinedAt == nil ? failures + 1 : 1
            logger.log(
                level: failures == 1 ? .warning : .debug,
                "relay connection ended",
                metadata: ["error": "\(error)", "retryIn": "\(TimeAmount(delay).relayWords)"]
            )
            guard (try? await LoopClock.shared.sleep(for: delay)) != nil else { return }
        }
    }

    /// One try: connect, join and stay until the connection ends; what ended it, and when the relay
    /// accepted the join if it did.
    private func stay(
        at url: RelayURL,
        generation: Int,
        logger: Logger
    ) async -> (error: RelayError, joinedAt: ContinuousClock.Instant?) {
        let link: RelayLink
        do {
            link = try await connector.open(url, timeout: timing.joinTimeout)
        } catch {
            return (error, nil)
        }
        let device = connector.device
        return await RelayStay(
            link: link,
            pingInterval: timing.pingInterval,
            joinTimeout: timing.joinTimeout,
            joined: {
                self.update(url, generation: generation) { $0.joined(at: Wallclock.millis()) }
                logger.info("joined relay", metadata: ["device": "\(device)"])
            },
            measured: { roundTrip in
                let milliseconds = roundTrip / .milliseconds(1)
                self.update(url, generation: generation) { $0.latencyMs = milliseconds }
            },
            invited: { invitation in
                logger.info("invited to a session", metadata: ["from": "\(invitation.from.short)"])
                self.pass(invitation, from: url)
            }
        )
        .run()
    }
}
