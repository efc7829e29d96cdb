import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOPosix
import PeerdModel
import PeerdTestKit
import Synchronization
import Testing

@testable import PeerdWeb

/// How soon a guest's connection frees its place (issue 36, point 7): on a real server with the
/// door's HTTP/1 configuration and ``ConnectionCap``, guests as raw TCP connections from 127.0.0.1.
@Suite("The guest door's connection cap")
struct GuestConnectionCapTests {
    @Test("closed event streams free their connections' places at once, and their streams' too")
    func closedStreamsFreeTheirPlacesAtOnce() async throws {
        let counts = EventFeed<Int>()
        let count = ConnectionCap.Count(limit: 256, perAddress: 16) { counts.send($0) }
        let ledger = GuestLedger(key: GuestKey(WebToken.random()))
        let desk = FakeGuestDesk()
        ledger.update(await desk.ownPicks())
        let events = "/g/\(ledger.key.capability(for: FakeGuestDesk.pick))/events"
        let gate = BoundGate(GuestGate(address: "127.0.0.1", port: 0))
        let app = Application(
            responder: GuestResponder(gate: gate, ledger: ledger, desk: desk),
            server: .http1(configuration: LANServer<GuestResponder<FakeGuestDesk>>.http1(count)),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { gate.listening(on: $0.localAddress?.port ?? 0) }
        )
        try await app.test(.live) { client in
            let port = try #require(client.port)
            // As many streams as one address may hold (GuestLimits.streamsPerAddress), each answered.
            var streams: [RawGuest] = []
            for _ in 0..<8 { streams.append(try await RawGuest.get(events, port: port)) }
            #expect(streams.allSatisfy { $0.head?.hasPrefix("HTTP/1.1 200") == true })
            // (The test client may hold a connection of its own: counted from here.)
            let opened = count.openCount

            let released = counts.subscribe()
            for stream in streams { try await stream.channel.close() }
            // The keep-alive, the next write, is 15 s away: only the client's close can free these.
            let freed = try await firstEvent(of: released, within: .seconds(5)) { $0 <= opened - 8 }
            #expect(freed != nil, "the closed streams' connections still held their places")

            // Their event streams were let go too: eight more from the same address are answered.
            var again: [RawGuest] = []
            for _ in 0..<8 { again.append(try await RawGuest.get(events, port: port)) }
            #expect(again.allSatisfy { $0.head?.hasPrefix("HTTP/1.1 200") == true }, "\(again.map(\.head))")
            for stream in again { try await stream.channel.close() }
        }
    }
}

/// A guest as a raw TCP connection: one `GET`, and what came back.
final class RawGuest: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    private let received = Mutex("")
    private let arrivals = EventFeed<String>()
    private let state = Mutex<(channel: (any Channel)?, head: String?)>((nil, nil))

    var channel: any Channel { state.withLock { $0.channel! } }
    /// The answer's head, once it came.
    var head: String? { state.withLock { $0.head } }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        let text = buffer.readString(length: buffer.readableBytes) ?? ""
        arrivals.send(
            received.withLock {
                $0 += text; return $0
            }
        )
    }

    /// Connects to the door on `port`, sends `GET path`, and returns once the answer's head came.
    static func get(_ path: String, port: Int) async throws -> RawGuest {
        let guest = RawGuest()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { $0.pipeline.addHandler(guest) }
            .connect(host: "127.0.0.1", port: port).get()
        let answer = guest.arrivals.subscribe()
        try await channel.writeAndFlush(ByteBuffer(string: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"))
        let head = try await firstEvent(of: answer) { $0.contains("\r\n\r\n") }
        guest.state.withLock { $0 = (channel, head) }
        return guest
    }
}
