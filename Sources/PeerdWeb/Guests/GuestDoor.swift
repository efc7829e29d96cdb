package import Logging
package import NIOCore
import NIOPosix
import PeerdLoops
package import PeerdModel
import ServiceLifecycle
package import SystemPackage

/// The guest door (proto/WEB.md, "Guests"): open on the LAN address while a pick this peer opened
/// is open, and for ``linger`` after the last one closed, so a guest still sees the result; shut
/// otherwise. One more service of the daemon; the server itself is ``PageServer`` with
/// ``GuestResponder``, started and stopped inside ``run()``'s task group.
package actor GuestDoor<Desk: GuestDesk>: Service {
    package struct Settings: Sendable {
        /// nil: ``LANAddress/detect()`` at each opening.
        package var address: String?
        package var port: Int
        package var keyPath: FilePath

        package init(address: String?, port: Int, keyPath: FilePath) {
            self.address = address
            self.port = port
            self.keyPath = keyPath
        }
    }

    /// How long the door stays open after the last pick closed.
    static var linger: Duration { .seconds(600) }

    enum Command: Sendable { case open, linger, closeIfIdle }

    struct Serving {
        let serial: Int
        let stop: AsyncStream<Never>.Continuation
        /// `http://ADDRESS:PORT`, once it listens.
        var base: String?
    }

    let settings: Settings
    let desk: Desk
    let eventLoopGroup: any EventLoopGroup
    let logger: Logger
    let ledger: Result<GuestLedger, WebTokenError>
    let (commands, sink) = AsyncStream.makeStream(of: Command.self)
    var serving: Serving?
    var serial = 0
    /// Why the door could not open, the last time it tried.
    var problem: String?
    var waiters: [CheckedContinuation<Void, Never>] = []
    private var lastOpenPick = ContinuousClock.now

    package init(settings: Settings, desk: Desk, eventLoopGroup: any EventLoopGroup, logger: Logger) {
        self.settings = settings
        self.desk = desk
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
        ledger = Result { () throws(WebTokenError) in GuestLedger(key: try GuestKey.load(at: settings.keyPath)) }
    }

    package func run() async throws {
        if case .failure(let error) = ledger {
            logger.error("guests can't be let in", metadata: ["reason": "\(error)"])
        }
        let changes = await desk.pickChanges()
        await refresh()
        await withDiscardingTaskGroup { group in
            group.addTask { for await _ in changes { await self.refresh() } }
            for await command in commands.cancelOnGracefulShutdown() {
                switch command {
                case .open: open(in: &group)
                case .linger:
                    group.addTask {
                        try? await LoopClock.shared.sleep(for: Self.linger)
                        self.sink.yield(.closeIfIdle)
                    }
                case .closeIfIdle:
                    if let ledger = try? ledger.get(), !ledger.anyOpen, lastOpenPick + Self.linger <= .now { close() }
                }
            }
            close()
            group.cancelAll()
        }
    }

    /// The guest link of `pick`, an open pick this peer opened: the door opened first if need
    /// be; or why there is none.
    package func link(for pick: PickOnList) async -> Result<String, GuestDoorProblem> {
        let ledger: GuestLedger
        switch self.ledger {
        case .success(let opened): ledger = opened
        case .failure(let error): return .failure(GuestDoorProblem(description: "\(error)"))
        }
        // A pick opened a moment ago may not have reached the ledger through the change stream yet.
        if !ledger.isOpen(pick) { await refresh() }
        guard ledger.isOpen(pick) else {
            return .failure(GuestDoorProblem(description: "guests join only an open pick this peer opened"))
        }
        if serving?.base == nil {
            if serving == nil { sink.yield(.open) }
            await withCheckedContinuation { waiters.append($0) }
        }
        guard let base = serving?.base else {
            return .failure(GuestDoorProblem(description: problem ?? "the guest page could not be opened"))
        }
        return .success("\(base)/g/\(ledger.key.capability(for: pick))/")
    }

    /// The picks this peer opened, as they are now: the door opens for an open one, and lingers
    /// once none is.
    private func refresh() async {
        guard case .success(let ledger) = self.ledger else { return }
        ledger.update(await desk.ownPicks())
        if ledger.anyOpen {
            lastOpenPick = .now
            if serving == nil { sink.yield(.open) }
        } else if serving != nil {
            sink.yield(.linger)
        }
    }
}

/// Why a pick has no guest link, in words for `peerctl pick` and the page.
package struct GuestDoorProblem: Error, CustomStringConvertible {
    package let description: String
}
