import Logging

/// Opening and closing the door: a ``LANServer`` with ``GuestResponder`` in a child task of
/// ``GuestDoor/run()``, stopped by finishing its `stop` stream.
extension GuestDoor {
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
        let (serial, port) = (self.serial, settings.port)
        let gate = BoundGate(GuestGate(address: address, port: port))
        let server = LANServer(
            responder: GuestResponder(gate: gate, ledger: ledger, desk: desk),
            address: address,
            port: port,
            eventLoopGroup: eventLoopGroup,
            logger: logger,
            otherPort: "--guest-port, or \"guestPort\""
        )
        group.addTask {
            await server.run(until: stopped) { bound in
                gate.listening(on: bound)
                await self.listening(serial, base: "http://\(WebPage.urlHost(address)):\(bound)")
            } failed: { reason in
                await self.failed(serial, reason)
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
