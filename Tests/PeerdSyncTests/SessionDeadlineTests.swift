import PeerdModel
import PeerdSync
import PeerdWire
import Testing

/// The transport sets one timer at the session's next deadline instead of ticking every second, so
/// a tick before the deadline must have nothing to do, and one at it something.
@Suite("A session's next deadline")
struct SessionDeadlineTests {
    func treeHello(_ peer: PeerID, _ vector: [PeerID: UInt64] = [:]) -> PeerMessage.Hello {
        PeerMessage.Hello(peer: peer, name: peer.short, port: 7601, vector: VersionVector(vector), tree: true)
    }

    func session(_ role: Session.Role) -> Session {
        var session = Session(role: role, localHello: treeHello(me), now: start)
        _ = session.start(now: start)
        _ = session.received(.hello(treeHello(them)), now: start)
        return session
    }

    /// Ticks just before `session`'s deadline (nothing), then at it (something), and returns what it did.
    func tickAtDeadline(_ session: inout Session, after now: ContinuousClock.Instant) throws -> [Session.Action] {
        let deadline = try #require(session.nextDeadline(now: now))
        #expect(session.tick(now: deadline.advanced(by: .milliseconds(-1))).isEmpty)
        let actions = session.tick(now: deadline)
        #expect(!actions.isEmpty)
        return actions
    }

    @Test func awaitingHelloTheDeadlineIsTheHandshakeTimeout() throws {
        var session = Session(role: .acceptor, localHello: hello(me), now: start)
        _ = session.start(now: start)
        #expect(session.nextDeadline(now: start) == start.advanced(by: .seconds(5)))
        let actions = try tickAtDeadline(&session, after: start)
        #expect(closeCode(actions) == .timeout)
        #expect(session.nextDeadline(now: start.advanced(by: .seconds(5))) == nil)
    }

    @Test func theDialerPingsAtTheIntervalAndTheAcceptorATenthLater() throws {
        var dialer = session(.dialer)
        var acceptor = session(.acceptor)
        #expect(dialer.nextDeadline(now: start) == start.advanced(by: .seconds(10)))
        #expect(acceptor.nextDeadline(now: start) == start.advanced(by: .seconds(11)))
        #expect(try tickAtDeadline(&dialer, after: start) == [.send(.ping)])
        // The ping reaches the acceptor first; its pong puts its own ping off by another interval.
        let ping = start.advanced(by: .seconds(10))
        #expect(acceptor.received(.ping, now: ping) == [.send(.pong)])
        #expect(acceptor.nextDeadline(now: ping) == ping.advanced(by: .seconds(11)))
        #expect(try tickAtDeadline(&acceptor, after: ping) == [.send(.ping)])
    }

    @Test func aSilentPeerIsClosedAtThreeIntervals() throws {
        var session = session(.dialer)
        var now = start
        for _ in 0..<2 {
            #expect(try tickAtDeadline(&session, after: now) == [.send(.ping)])
            now = now.advanced(by: .seconds(10))
        }
        #expect(session.nextDeadline(now: now) == start.advanced(by: .seconds(30)))
        #expect(closeCode(try tickAtDeadline(&session, after: now)) == .timeout)
    }

    @Test func bytesArrivingMoveTheSilenceDeadline() {
        var session = session(.dialer)
        _ = session.tick(now: start.advanced(by: .seconds(10)))
        _ = session.tick(now: start.advanced(by: .seconds(20)))
        session.heard(now: start.advanced(by: .seconds(25)))
        #expect(session.nextDeadline(now: start.advanced(by: .seconds(25))) == start.advanced(by: .seconds(30)))
        _ = session.tick(now: start.advanced(by: .seconds(30)))
        #expect(session.nextDeadline(now: start.advanced(by: .seconds(30))) == start.advanced(by: .seconds(40)))
        #expect(session.tick(now: start.advanced(by: .seconds(40))) == [.send(.ping)])
        #expect(session.nextDeadline(now: start.advanced(by: .seconds(40))) == start.advanced(by: .seconds(50)))
        #expect(closeCode(session.tick(now: start.advanced(by: .seconds(55)))) == .timeout)
    }

    @Test func aHaveOwedFallsDueAnIntervalAfterTheLastOne() throws {
        var session = session(.dialer)
        _ = session.received(.prune([third]), now: start)
        #expect(!session.owesHave)
        _ = session.localAdvanced(to: VersionVector([third: 3]), now: start)
        let later = start.advanced(by: .seconds(2))
        _ = session.localAdvanced(to: VersionVector([third: 4]), now: later)
        #expect(session.owesHave)
        #expect(session.nextDeadline(now: later) == start.advanced(by: .seconds(5)))
        let actions = try tickAtDeadline(&session, after: later)
        #expect(actions == [.send(.have(VersionVector([third: 4])))])
        #expect(!session.owesHave)
        #expect(session.nextDeadline(now: start.advanced(by: .seconds(5))) == start.advanced(by: .seconds(15)))
    }

    @Test func theDeadlineFollowsTheHavesSpacingAsItDoubles() throws {
        var session = session(.dialer)
        _ = session.received(.prune([third]), now: start)
        _ = session.localAdvanced(to: VersionVector([third: 1]), now: start)
        _ = session.localAdvanced(to: VersionVector([third: 2]), now: start.advanced(by: .seconds(1)))
        #expect(session.nextDeadline(now: start.advanced(by: .seconds(1))) == start.advanced(by: .seconds(5)))
        #expect(
            try tickAtDeadline(&session, after: start.advanced(by: .seconds(1))).contains(
                .send(.have(VersionVector([third: 2])))
            )
        )
        // An operation of our own goes out at once (the next ping is 10 s after it); the lazy
        // origin's news waits twice the first spacing.
        let later = start.advanced(by: .seconds(6))
        _ = session.localAdvanced(to: VersionVector([third: 3, me: 1]), now: later)
        #expect(session.nextDeadline(now: later) == start.advanced(by: .seconds(15)))
    }

    @Test func aGraftFallsDueOneSecondAfterTheHaveThatShowedWhatWeLack() throws {
        var session = session(.dialer)
        _ = session.received(.have(VersionVector([third: 5])), now: start.advanced(by: .seconds(3)))
        #expect(session.nextDeadline(now: start.advanced(by: .seconds(3))) == start.advanced(by: .seconds(4)))
        #expect(try tickAtDeadline(&session, after: start.advanced(by: .seconds(3))) == [.send(.graft([third]))])
        // What the have announced arrived another way: no graft is due for it any more.
        _ = session.received(.have(VersionVector([third: 7])), now: start.advanced(by: .seconds(5)))
        _ = session.localAdvanced(to: VersionVector([third: 7]), now: start.advanced(by: .seconds(5)))
        #expect(session.nextDeadline(now: start.advanced(by: .seconds(5))) == start.advanced(by: .seconds(14)))
    }

    @Test func aClosedSessionHasNoDeadline() {
        var session = session(.dialer)
        _ = session.failed(WireError(.internal, "gone"))
        #expect(session.nextDeadline(now: start) == nil)
    }
}
