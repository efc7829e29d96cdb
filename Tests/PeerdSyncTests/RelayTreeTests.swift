import PeerdModel
import PeerdSync
import PeerdWire
import Testing

/// The relay tree in a session (proto/PEER.md, "Relay tree"): prune on duplicates, `have` on lazy
/// origins at most every 5 s, graft what a `have` showed missing for 1 s, never a lazy origin of
/// our own, and none of it with a peer that floods.
@Suite("Relay tree")
struct RelayTreeTests {
    func treeHello(_ peer: PeerID, _ vector: [PeerID: UInt64] = [:], tree: Bool? = true) -> PeerMessage.Hello {
        PeerMessage.Hello(peer: peer, name: peer.short, port: 7601, vector: VersionVector(vector), tree: tree)
    }

    func session(remoteTree: Bool? = true, local: [PeerID: UInt64] = [:]) -> Session {
        var session = Session(role: .dialer, localHello: treeHello(me, local), now: start)
        _ = session.start(now: start)
        _ = session.received(.hello(treeHello(them, tree: remoteTree)), now: start)
        return session
    }

    func sends(_ actions: [Session.Action]) -> [PeerMessage] {
        actions.compactMap { if case .send(let message) = $0 { message } else { nil } }
    }

    func pushes(_ actions: [Session.Action]) -> [Session.SendRange] {
        actions.flatMap { action -> [Session.SendRange] in
            if case .sendOperations(let ranges) = action { ranges } else { [] }
        }
    }

    @Test func duplicatesPruneTheirOriginsButNeverThePeersOwn() {
        var session = session()
        let actions = session.delivered(heldAlready: [third, them, me], now: start)
        #expect(sends(actions) == [.prune([third])])
        #expect(session.delivered(heldAlready: [them], now: start).isEmpty)
    }

    @Test func aPrunedOriginIsAnnouncedNotPushedAndAGraftPushesIt() {
        var session = session()
        _ = session.received(.prune([third]), now: start)
        let vector = VersionVector([third: 3, me: 1])
        let actions = session.localAdvanced(to: vector, now: start)
        #expect(pushes(actions) == [.init(origin: me, seqs: 1...1)])
        #expect(sends(actions) == [.have(vector)])
        // More of the lazy origin within 5 s: no second have yet; after 5 s, one.
        let later = VersionVector([third: 4, me: 1])
        #expect(sends(session.localAdvanced(to: later, now: start.advanced(by: .seconds(2)))).isEmpty)
        #expect(sends(session.tick(now: start.advanced(by: .seconds(5)))) == [.have(later)])
        let grafted = session.received(.graft([third]), now: start.advanced(by: .seconds(6)))
        #expect(pushes(grafted) == [.init(origin: third, seqs: 1...4)])
    }

    @Test func theHavesSpreadOutUntilAGraftShowsTheyAreNeeded() {
        var session = session()
        _ = session.received(.prune([third]), now: start)
        /// The seconds at which a `have` went out, with news of the lazy origin every second (and
        /// the other side's pongs, so that the session lives).
        func haves(_ seconds: ClosedRange<Int>) -> [Int] {
            seconds.filter { second in
                let now = start.advanced(by: .seconds(second))
                _ = session.received(.pong, now: now)
                let advanced = session.localAdvanced(to: VersionVector([third: UInt64(second + 1)]), now: now)
                return sends(advanced + session.tick(now: now)).contains { $0.type == "have" }
            }
        }
        // At once, then 5, 10 and 20 s apart.
        #expect(haves(0...40) == [0, 5, 15, 35])
        // The other side needed something: from 5 s again (not 40 s after the last), then 10.
        _ = session.received(.graft([third]), now: start.advanced(by: .seconds(41)))
        _ = session.received(.prune([third]), now: start.advanced(by: .seconds(41)))
        #expect(haves(42...55) == [42, 52])
    }

    @Test func ourOwnOriginIsNeverLazy() {
        var session = session()
        _ = session.received(.prune([me]), now: start)
        #expect(
            pushes(session.localAdvanced(to: VersionVector([me: 2]), now: start)) == [.init(origin: me, seqs: 1...2)]
        )
    }

    @Test func aHaveShowingWhatWeLackGraftsAfterOneSecondUnlessItArrives() {
        var session = session()
        let theirs = VersionVector([third: 5])
        #expect(session.received(.have(theirs), now: start).isEmpty)
        #expect(sends(session.tick(now: start.advanced(by: .milliseconds(500)))).isEmpty)
        #expect(sends(session.tick(now: start.advanced(by: .seconds(1)))) == [.graft([third])])
        // Announced and then brought by another session: no graft.
        _ = session.received(.have(VersionVector([third: 7])), now: start.advanced(by: .seconds(2)))
        _ = session.localAdvanced(to: VersionVector([third: 7]), now: start.advanced(by: .seconds(2)))
        #expect(sends(session.tick(now: start.advanced(by: .seconds(4)))).isEmpty)
    }

    @Test func whatAHaveAnnouncesIsNeverSentBack() {
        var session = session()
        _ = session.received(.have(VersionVector([third: 5])), now: start)
        #expect(
            pushes(session.localAdvanced(to: VersionVector([third: 6]), now: start)) == [
                .init(origin: third, seqs: 6...6)
            ]
        )
    }

    @Test func aPeerThatFloodsGetsNoRelayMessagesAndMaySendNone() {
        var session = session(remoteTree: nil)
        #expect(session.delivered(heldAlready: [third], now: start).isEmpty)
        guard case .close(let error?) = session.received(.prune([third]), now: start).first else {
            Issue.record("a prune from a flooding peer was taken")
            return
        }
        #expect(error.code == .unexpectedMessage)
    }

    @Test func withTheTreeOffOurHelloSaysNothingAndEverySessionFloods() {
        var configuration = Session.Configuration()
        configuration.relayTree = false
        var session = Session(
            role: .dialer,
            localHello: treeHello(me, tree: nil),
            now: start,
            configuration: configuration
        )
        _ = session.start(now: start)
        _ = session.received(.hello(treeHello(them)), now: start)
        #expect(session.delivered(heldAlready: [third], now: start).isEmpty)
    }
}

@Suite("Relay messages on the wire")
struct RelayMessageCodingTests {
    @Test func pruneAndGraftNameOneToAThousandOrigins() throws {
        for type in ["prune", "graft"] {
            let none = Array(#"{"type":"\#(type)","origins":[]}"#.utf8)
            #expect(throws: WireError.self) { try WireCoding.decode(PeerMessage.self, from: none) }
            let one = WireCoding.encode(type == "prune" ? PeerMessage.prune([them]) : .graft([them]))
            #expect(try WireCoding.decode(PeerMessage.self, from: one).type == type)
        }
        let many = PeerMessage.prune(
            (0...PeerMessage.maxOrigins).map { PeerID(String(repeating: "0", count: 28) + String(1_000 + $0))! }
        )
        #expect(throws: WireError.self) { try WireCoding.decode(PeerMessage.self, from: WireCoding.encode(many)) }
    }

    @Test func aHaveCarriesAVersionVector() throws {
        let have = PeerMessage.have(VersionVector([them: 3, third: 9]))
        #expect(try WireCoding.decode(PeerMessage.self, from: WireCoding.encode(have)) == have)
    }
}
