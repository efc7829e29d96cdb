package import Logging
package import NIOCore
import PeerdLoops
package import PeerdModel
import ServiceLifecycle

/// The device door (proto/WEB.md, "Devices"): the member's page on the LAN address for linked
/// devices, open while a device is linked or a link is pending, and for ``Settings/linger`` after
/// the last one went, so an unlinked phone is told so (a 401 with words) rather than finding
/// nothing; shut otherwise. The server is a ``LANServer`` with ``DeviceResponder``, started and
/// stopped inside ``run()``'s task group as the ``DeviceLedger`` changes.
package actor DeviceDoor<Backend: WebBackend>: Service {
    package struct Settings: Sendable {
        /// nil: ``LANAddress/detect()`` at each opening.
        package var address: String?
        package var port: Int
        /// This machine's name, for the words of a refusal.
        package var machine: String
        package var linger: Duration

        package init(address: String?, port: Int, machine: String, linger: Duration = .seconds(600)) {
            self.address = address
            self.port = port
            self.machine = machine
            self.linger = linger
        }
    }

    struct Serving {
        let serial: Int
        let stop: AsyncStream<Never>.Continuation
    }

    let settings: Settings
    let ledger: DeviceLedger
    let backend: Backend
    let eventLoopGroup: any EventLoopGroup
    let logger: Logger
    var serving: Serving?
    var serial = 0
    /// When the door last had a device or a link.
    var lastNeeded = ContinuousClock.now
    /// The expiry of a pending link a timer is set for.
    var expiryTimer: Int64?

    package init(
        settings: Settings,
        ledger: DeviceLedger,
        backend: Backend,
        eventLoopGroup: any EventLoopGroup,
        logger: Logger
    ) {
        self.settings = settings
        self.ledger = ledger
        self.backend = backend
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
    }

    package func run() async throws {
        let backend = self.backend
        await withDiscardingTaskGroup { group in
            // What the page's `pick` events are built from, for as long as peerd runs.
            group.addTask { await backend.run() }
            update(in: &group)
            for await _ in ledger.changes.cancelOnGracefulShutdown() { update(in: &group) }
            close()
            group.cancelAll()
        }
    }

    /// Opens the door for a device or a link; lingers once there is none; and sets a timer for the
    /// next link's expiry.
    private func update(in group: inout DiscardingTaskGroup) {
        if ledger.needsDoor {
            lastNeeded = .now
            if serving == nil { open(in: &group) }
        } else if serving != nil {
            let linger = settings.linger
            group.addTask {
                try? await LoopClock.shared.sleep(for: linger)
                await self.closeIfIdle()
            }
        }
        if let next = ledger.nextExpiry, expiryTimer.map({ next < $0 }) ?? true {
            expiryTimer = next
            let wait = Duration.milliseconds(max(0, next - Wallclock.millis()) + 1)
            group.addTask {
                try? await LoopClock.shared.sleep(for: wait)
                await self.expire()
            }
        }
    }

    private func expire() {
        expiryTimer = nil
        ledger.expireLinks()
        // A change is told only when a link expired; the timer for the next one is set here.
        if ledger.nextExpiry != nil { ledger.changed.yield() }
    }

    private func closeIfIdle() {
        if !ledger.needsDoor, lastNeeded + settings.linger <= .now { close() }
    }

    private func open(in group: inout DiscardingTaskGroup) {
        guard let address = settings.address ?? LANAddress.detect() else {
            ledger.failed(
                "this machine has no IPv4 address on a LAN for a phone to reach; give one with --device-address"
            )
            return
        }
        serial += 1
        let (stopped, stop) = AsyncStream.makeStream(of: Never.self)
        serving = Serving(serial: serial, stop: stop)
        let (serial, ledger, logger) = (self.serial, self.ledger, self.logger)
        let gate = BoundGate(DeviceGate(address: address, port: settings.port))
        let server = LANServer(
            responder: DeviceResponder(gate: gate, ledger: ledger, backend: backend, machine: settings.machine),
            address: address,
            port: settings.port,
            eventLoopGroup: eventLoopGroup,
            logger: logger,
            otherPort: "--device-port, or \"devicePort\""
        )
        group.addTask {
            await server.run(until: stopped) { bound in
                gate.listening(on: bound)
                let base = "http://\(WebPage.urlHost(address)):\(bound)"
                logger.info("serving linked devices", metadata: ["address": "\(base)"])
                ledger.listening(at: base)
            } failed: { reason in
                logger.error("linked devices can't be served", metadata: ["reason": "\(reason)"])
                ledger.failed(reason.description)
            }
            await self.ended(serial)
        }
    }

    private func close() {
        guard let serving else { return }
        serving.stop.finish()
        self.serving = nil
        ledger.closed()
        logger.info("the device door is closed")
    }

    private func ended(_ serial: Int) {
        guard serving?.serial == serial else { return }
        serving = nil
        ledger.closed()
    }
}
