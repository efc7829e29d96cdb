import Logging
import PeerdDesktop
import PeerdTestKit
import Synchronization
import Testing

/// The notifier against a real `dbus-daemon` and a notification server of the tests' own on it.
@Suite struct DesktopNotifierTests {
    static let busMissing: Comment = "needs dbus-daemon (apt install dbus)"

    static let arrival = DesktopNotice(
        summary: "Arrival is now on Netflix",
        body: "Wanted by alice and sam · JustWatch via TMDB, read 6 Dec",
        imagePath: "/home/alice/.cache/peerd/posters/329865.jpg",
        urgency: .low,
        openURL: "http://127.0.0.1:7603/#movie/tmdb:329865"
    )

    /// A notifier connected to `bus`.
    static func notifier(
        on bus: TestSessionBus,
        logger: Logger = LogRecorder().logger,
        open: @escaping @Sendable (String) -> Void = { _ in }
    ) throws -> DesktopNotifier {
        let notifier = DesktopNotifier.connect(address: bus.address, logger: logger, open: open)
        return try #require(notifier)
    }

    @Test(.enabled(if: TestSessionBus.program != nil, busMissing))
    func aNoticeReachesTheServerOnceWithEveryFieldAndReturnsItsID() async throws {
        try await withTestSessionBus { bus in
            let server = try TestNotificationServer(address: bus.address, firstID: 41)
            let log = LogRecorder()
            let notifier = try Self.notifier(on: bus, logger: log.logger)
            defer { notifier.close() }

            #expect(await notifier.notify(Self.arrival) == 41)
            let poster = Self.arrival.imagePath!
            let expected: [BusValue] = [
                .string("peerd"), .uint32(0), .string(poster), .string(Self.arrival.summary),
                .string(Self.arrival.body), .strings(["default", "Open"]),
                .dictionary(["urgency": .byte(0), "image-path": .string(poster), "desktop-entry": .string("peerd")]),
                .int32(-1),
            ]
            #expect(server.calls == [expected])

            let plain = DesktopNotice(summary: "Tonight", body: "3 picks")
            #expect(await notifier.notify(plain) == 42)
            #expect(server.calls.last?[2] == .string(""), "no image: an empty app icon")
            #expect(server.calls.last?[5] == .strings([]), "no link: no action")
            #expect(server.calls.last?[6] == .dictionary(["urgency": .byte(1), "desktop-entry": .string("peerd")]))
            #expect(log.records.isEmpty)
        }
    }

    @Test(.enabled(if: TestSessionBus.program != nil, busMissing))
    func theDefaultActionOpensTheLinkOnceAndOnlyForANoticeItSent() async throws {
        try await withTestSessionBus { bus in
            let server = try TestNotificationServer(address: bus.address)
            let opener = Opener()
            let notifier = try Self.notifier(on: bus, open: opener.open)
            defer { notifier.close() }
            let first = try #require(await notifier.notify(Self.arrival))

            let opened = opener.feed.subscribe()
            await server.invokeAction(id: first + 100)
            await server.invokeAction(id: first, key: "dismiss")
            await server.invokeAction(id: first)
            #expect(try await firstEvent(of: opened) == Self.arrival.openURL)

            // Closed, its id is forgotten: a late click opens nothing.
            await server.close(id: first)
            await server.invokeAction(id: first)
            var second = Self.arrival
            second.openURL = "http://127.0.0.1:7603/#movie/tmdb:603"
            let secondID = try #require(await notifier.notify(second))
            let openedAgain = opener.feed.subscribe()
            await server.invokeAction(id: secondID)
            #expect(try await firstEvent(of: openedAgain) == second.openURL)
            // Signals from one sender arrive in order: anything opened wrongly would be listed before.
            #expect(opener.urls == [Self.arrival.openURL, second.openURL])
        }
    }

    @Test(.enabled(if: TestSessionBus.program != nil, busMissing))
    func anActionInvokedFromAnotherProgramOpensNothing() async throws {
        try await withTestSessionBus { bus in
            let server = try TestNotificationServer(address: bus.address)
            let impostor = try TestNotificationServer(address: bus.address, owningName: false)
            let opener = Opener()
            let notifier = try Self.notifier(on: bus, open: opener.open)
            defer { notifier.close() }
            let id = try #require(await notifier.notify(Self.arrival))

            let opened = opener.feed.subscribe()
            await impostor.invokeAction(id: id)
            await server.invokeAction(id: id)
            #expect(try await firstEvent(of: opened) == Self.arrival.openURL)
            // The bus routed the impostor's signal first; the answer to a later Notify comes after both.
            _ = await notifier.notify(DesktopNotice(summary: "barrier", body: ""))
            #expect(opener.urls == [Self.arrival.openURL])
        }
    }

    @Test(.enabled(if: TestSessionBus.program != nil, busMissing))
    func withNoNotificationServerANoticeIsNilAndTheCauseLogged() async throws {
        try await withTestSessionBus { bus in
            let log = LogRecorder()
            let notifier = try Self.notifier(on: bus, logger: log.logger)
            defer { notifier.close() }

            #expect(await notifier.notify(Self.arrival) == nil)
            let notices = log.records.filter { $0.message == "desktop notification not shown" }
            #expect(notices.count == 1 && notices.first?.level == .notice)
            #expect(notices.first?.metadata["cause"]?.description.contains("ServiceUnknown") == true)
            #expect(notifier.isListening, "the bus is still there for a server that comes later")
        }
    }

    @Test func withNoBusAddressOrNoBusThereIsNoNotifierAndOneInfoLine() throws {
        let scratch = try ScratchDirectory("dbus")
        defer { scratch.remove() }
        for address in [nil, "", "unix:path=\(scratch.path("bus"))"] {
            let log = LogRecorder()
            #expect(DesktopNotifier.connect(address: address, logger: log.logger, open: { _ in }) == nil)
            #expect(log.records.map(\.message) == ["no desktop notifications: no session bus"])
            #expect(log.records.first?.level == .info && log.records.first?.metadata["cause"] != nil)
        }
    }

    @Test(.enabled(if: TestSessionBus.program != nil, busMissing))
    func whenTheBusGoesTheLoopEndsWithOneLineAndLaterNoticesAreNil() async throws {
        try await withTestSessionBus { bus in
            let server = try TestNotificationServer(address: bus.address)
            defer { server.stop() }
            let log = LogRecorder()
            let notifier = try Self.notifier(on: bus, logger: log.logger)
            defer { notifier.close() }
            #expect(await notifier.notify(Self.arrival) == 7)

            let stopped = log.stream(of: "desktop notifications stopped: the session bus went away")
            bus.kill()
            #expect(try await firstEvent(of: stopped) != nil)
            #expect(!notifier.isListening, "its thread has ended by itself")
            #expect(await notifier.notify(Self.arrival) == nil)
            #expect(log.records.last?.metadata["cause"] == "the session bus connection has closed")
            notifier.close()
            #expect(log.records.filter { $0.message.hasPrefix("desktop notifications stopped") }.count == 1)
        }
    }

    @Test(.enabled(if: TestSessionBus.program != nil, busMissing))
    func closeEndsTheThreadAndLaterNoticesAreNil() async throws {
        try await withTestSessionBus { bus in
            let server = try TestNotificationServer(address: bus.address)
            let log = LogRecorder()
            let notifier = try Self.notifier(on: bus, logger: log.logger)
            #expect(notifier.isListening)
            notifier.close()
            #expect(!notifier.isListening, "close() returns once the thread has ended")
            notifier.close()
            #expect(await notifier.notify(Self.arrival) == nil)
            #expect(server.calls.isEmpty)
        }
    }
}

/// The `open` seam: every link it was asked to open, in order, announced on a feed.
final class Opener: Sendable {
    let feed = EventFeed<String?>()
    private let opened = Mutex<[String?]>([])

    var urls: [String?] { opened.withLock { $0 } }

    var open: @Sendable (String) -> Void {
        { [self] url in
            opened.withLock { $0.append(url) }
            feed.send(url)
        }
    }
}
