import Foundation
import NIOCore
import PeerdModel
import PeerdWeb
import PeerdWire
import Synchronization
import Testing

@testable import PeerdDaemon

/// The page's pick events: a commit that changes a pick costs one `pickStatus`, however many pages
/// are open, and each page gets the pick's whole state in its event (proto/WEB.md).
@Suite("PagePickEvents")
struct PagePickEventsTests {
    static let pick = OperationID(origin: PeerID("e47d41781ad71e3c12901eaf77360415")!, seq: 14)

    /// The golden `pickState` response (proto/golden), as `pickStatus` answers a pick.
    static let state: ControlResponse = {
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../proto/golden/control-response-pickState.bin")
        let body = ((try? Data(contentsOf: golden)) ?? Data(count: 4)).dropFirst(4)
        return (try? WireCoding.decode(ControlResponse.self, from: ByteBuffer(bytes: body))) ?? .following
    }()

    /// Runs the events over `commits` (each a batch of changed picks), counting what was built.
    static func run(_ events: PagePickEvents, commits: [[OperationID]]) async -> Int {
        let (changes, feed) = AsyncStream.makeStream(of: [OperationID].self)
        for commit in commits { feed.yield(commit) }
        feed.finish()
        let built = Mutex(0)
        await events.run(changes: changes) { _ in
            built.withLock { $0 += 1 }
            return state
        }
        return built.withLock { $0 }
    }

    @Test("three open pages get one event per changed pick, its whole state, built once")
    func buildsOnceForEveryPage() async {
        guard case .pickState = Self.state else {
            Issue.record("the golden pickState did not decode")
            return
        }
        let events = PagePickEvents()
        let pages = (0..<3).map { _ in events.subscribe() }
        let built = await Self.run(events, commits: [[Self.pick], [Self.pick]])
        #expect(built == 2)
        let expected = "event: pick\ndata: \(String(decoding: WireCoding.encode(Self.state), as: UTF8.self))\n\n"
        for page in pages {
            var frames: [String] = []
            for await event in page { frames.append(String(buffer: event.frame)) }
            #expect(frames == [expected, expected])
        }
    }

    @Test("with no page open, nothing is built")
    func buildsNothingUnread() async {
        #expect(await Self.run(PagePickEvents(), commits: [[Self.pick]]) == 0)
    }

    @Test("an answer that is not a pick's state (the pick is gone) is no event")
    func skipsRefusals() async {
        let events = PagePickEvents()
        let page = events.subscribe()
        let (changes, feed) = AsyncStream.makeStream(of: [OperationID].self)
        feed.yield([Self.pick])
        feed.finish()
        await events.run(changes: changes) { _ in .error(WireError(.badRequest, "there is no pick")) }
        var count = 0
        for await _ in page { count += 1 }
        #expect(count == 0)
    }
}
