import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

#if canImport(Glibc)
import Glibc
#endif

/// Opening and closing the door: a ``PageServer`` with ``GuestResponder`` in a child task of
/// ``GuestDoor/run()``, stopped by finishing its `stop` stream.
extension GuestDoor {
    /// Guests' connections at once, at most (``ConnectionCap``): 32 guests with a few each; and
    /// from one address (a phone keeps two to six).
    static var maxConnections: (all: Int, perAddress: Int) { (256, 16) }

    /// Guests' connections close after this long without a request; their headers are small.
    static func http1(_ count: ConnectionCap.Count) -> HTTP1Channel.Configuration {
        .init(
            additionalChannelHandlers: [ConnectionCap(count)],
            idleTimeout: .seconds(10),
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: 8 * 1024,
                maxHeaderListSize: 16 * 1024,
                maxHeaderFieldCount: 64
            )
        )
    }

    func open(in group: inout DiscardingTaskGroup) {
        // Already open, or opening (its `listening` wakes the waiters).
        guard serving == nil else { return }
        guard case .success(let ledger) = self.ledger else { return wake() }
        guard let address = settings.address ?? LANAddress.detect() else {
            problem = "this machine has no IPv4 address on a LAN for guests to reach; give one with --guest-address"
            return wake()
        }
        serial += 1
        let (stopped, stop) = AsyncStream.makeStream(of: Never.self)
        serving = Serving(serial: serial, stop: stop, base: nil)
        let (serial, port, logger) = (self.serial, settings.port, self.logger)
        let gate = BoundGate(GuestGate(address: address, port: port))
        let server = PageServer(
            responder: GuestResponder(gate: gate, ledger: ledger, desk: desk),
            configuration: ServerConfiguration(address: .hostname(address, port: port), reuseAddress: true),
            eventLoopGroup: eventLoopGroup,
            logger: logger,
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                gate.listening(on: bound)
                await self.listening(serial, base: "http://\(WebPage.urlHost(address)):\(bound)")
            },
            http1: Self.http1(
                ConnectionCap.Count(limit: Self.maxConnections.all, perAddress: Self.maxConnections.perAddress)
            )
        )
        group.addTask {
            await withTaskGroup(of: Void.self) { lifetime in
                lifetime.addTask {
                    do {
                        try await server.run()
                    } catch {
                        let reason = CannotListen(
                            address: address,
                            port: port,
                            error: error,
                            otherPort: "--guest-port, or \"guestPort\""
                        )
                        await self.failed(serial, reason)
                    }
                }
                lifetime.addTask { for await _ in stopped {} }
                await lifetime.next()
                lifetime.cancelAll()
            }
            await self.ended(serial)
        }
    }

    func close() {
        guard let serving else { return }
        serving.stop.finish()
        self.serving = nil
        logger.info("the guest page is closed")
    }

    private func listening(_ serial: Int, base: String) {
        guard serving?.serial == serial else { return }
        serving?.base = base
        problem = nil
        logger.info("serving the guest page", metadata: ["address": "\(base)"])
        wake()
    }

    private func failed(_ serial: Int, _ error: CannotListen) {
        guard serving?.serial == serial else { return }
        problem = error.description
        logger.error("the guest page can't be served", metadata: ["reason": "\(problem ?? "")"])
    }

    private func ended(_ serial: Int) {
        guard serving?.serial == serial else { return }
        serving = nil
        wake()
    }

    /// Resumes every `link(for:)` waiting on the door: it listens now, or it could not.
    private func wake() {
        let waiting = waiters
        waiters = []
        for waiter in waiting { waiter.resume() }
    }
}
