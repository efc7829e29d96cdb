import PeerdModel
import PeerdSync
import PeerdWire
import Testing

typealias Session = PeerSession<ContinuousClock.Instant>

let me = PeerID("aaaaaaaaaaaaaaaa")!
let them = PeerID("bbbbbbbbbbbbbbbb")!
let third = PeerID("cccccccccccccccc")!
let start = ContinuousClock.now

func hello(_ peer: PeerID, _ vector: [PeerID: UInt64] = [:]) -> PeerMessage.Hello {
    PeerMessage.Hello(peer: peer, name: peer.short, port: 7601, vector: VersionVector(vector))
}

func op(_ origin: PeerID, _ seq: UInt64) -> Operation {
    Operation(
        id: OperationID(origin: origin, seq: seq),
        lamport: seq,
        at: 0,
        by: "x",
        kind: .add,
        movie: Movie(id: MovieID(Int(seq))!)
    )
}

func established(local: [PeerID: UInt64] = [:], remote: [PeerID: UInt64] = [:]) -> Session {
    var session = Session(role: .dialer, localHello: hello(me, local), now: start)
    _ = session.start(now: start)
    _ = session.received(.hello(hello(them, remote)), now: start)
    return session
}

@Suite("PeerSession state machine")
struct PeerSessionTests {
    @Test func startingSendsOurHello() {
        var session = Session(role: .acceptor, localHello: hello(me), now: start)
        #expect(session.start(now: start) == [.send(.hello(hello(me)))])
    }

    @Test func theirHelloEstablishesAndSendsOnlyWhatTheyLack() {
        var session = Session(role: .dialer, localHello: hello(me, [me: 5, third: 2]), now: start)
        _ = session.start(now: start)
        let actions = session.received(.hello(hello(them, [me: 3, them: 9])), now: start)
        #expect(
            actions == [
                .established(hello(them, [me: 3, them: 9])),
                .sendOperations([.init(origin: me, seqs: 4...5), .init(origin: third, seqs: 1...2)]),
            ]
        )
        #expect(session.remote?.peer == them)
    }

    @Test func anythingBeforeHelloClosesWithUnexpectedMessage() {
        var session = Session(role: .acceptor, localHello: hello(me), now: start)
        let actions = session.received(.ops([op(them, 1)]), now: start)
        #expect(actions.count == 1)
        guard case .close(let error?) = actions.first else { Issue.record("expected a close, got \(actions)"); return }
        #expect(error.code == .unexpectedMessage)
        #expect(session.isClosed)
        #expect(session.received(.ping, now: start).isEmpty)
    }

    @Test func aHelloFromOurselvesIsASelfConnection() {
        var session = Session(role: .dialer, localHello: hello(me), now: start)
        let actions = session.received(.hello(hello(me)), now: start)
        guard case .close(let error?) = actions.first else { Issue.record("expected a close"); return }
        #expect(error.code == .selfConnection)
    }

    @Test func aSecondHelloIsRefused() {
        var session = established()
        guard case .close(let error?) = session.received(.hello(hello(them)), now: start).first else {
            Issue.record("expected a close")
            return
        }
        #expect(error.code == .unexpectedMessage)
    }

    @Test func receivedOperationsAreDeliveredAndNeverEchoedBack() {
        var session = established()
        let ops = [op(them, 1), op(them, 2), op(third, 1)]
        #expect(session.received(.ops(ops), now: start) == [.deliver(ops)])
        // Our replica commits them and tells the session: nothing goes back to their sender.
        #expect(session.localAdvanced(to: VersionVector([them: 2, third: 1]), now: start).isEmpty)
    }

    @Test func localProgressIsPushedOnceAndOnlyTheNewPart() {
        var session = established(local: [me: 1], remote: [me: 1])
        #expect(
            session.localAdvanced(to: VersionVector([me: 3]), now: start)
                == [.sendOperations([.init(origin: me, seqs: 2...3)])]
        )
        #expect(session.localAdvanced(to: VersionVector([me: 3]), now: start).isEmpty)
        #expect(
            session.localAdvanced(to: VersionVector([me: 3, third: 1]), now: start)
                == [.sendOperations([.init(origin: third, seqs: 1...1)])]
        )
    }

    @Test func operationsFromOnePeerAreRelayedToAnotherThatLacksThem() {
        var fromA = established()
        var toC = established()
        let ops = [op(them, 1), op(them, 2)]
        #expect(fromA.received(.ops(ops), now: start) == [.deliver(ops)])
        let committed = VersionVector([them: 2])
        #expect(fromA.localAdvanced(to: committed, now: start).isEmpty)
        #expect(toC.localAdvanced(to: committed, now: start) == [.sendOperations([.init(origin: them, seqs: 1...2)])])
    }

    @Test func noHelloWithinTheHandshakeDeadlineTimesOut() {
        var session = Session(role: .acceptor, localHello: hello(me), now: start)
        _ = session.start(now: start)
        #expect(session.tick(now: start.advanced(by: .seconds(4))).isEmpty)
        guard case .close(let error?) = session.tick(now: start.advanced(by: .seconds(5))).first else {
            Issue.record("expected a close")
            return
        }
        #expect(error.code == .timeout)
    }

    @Test func silenceOnOurSideSendsAPingAndPingsAreAnswered() {
        var session = established()
        #expect(session.tick(now: start.advanced(by: .seconds(9))).isEmpty)
        #expect(session.tick(now: start.advanced(by: .seconds(10))) == [.send(.ping)])
        #expect(session.tick(now: start.advanced(by: .seconds(11))).isEmpty)
        #expect(session.received(.ping, now: start.advanced(by: .seconds(12))) == [.send(.pong)])
    }

    @Test func silenceOnTheirSideForThreeIntervalsClosesTheSession() {
        var session = established()
        _ = session.received(.pong, now: start.advanced(by: .seconds(5)))
        #expect(
            !session.tick(now: start.advanced(by: .seconds(34))).contains {
                if case .close = $0 { true } else { false }
            }
        )
        guard case .close(let error?) = session.tick(now: start.advanced(by: .seconds(35))).first else {
            Issue.record("expected a close")
            return
        }
        #expect(error.code == .timeout)
    }

    @Test func bytesArrivingWithoutAWholeFrameKeepASlowSessionAlive() {
        var session = established()
        // A large frame trickles in over a slow link: no frame for a minute, bytes every 20 s.
        for second in stride(from: 20, through: 60, by: 20) {
            session.heard(now: start.advanced(by: .seconds(second)))
            let actions = session.tick(now: start.advanced(by: .seconds(second + 19)))
            #expect(!actions.contains { if case .close = $0 { true } else { false } })
        }
        guard case .close(let error?) = session.tick(now: start.advanced(by: .seconds(90))).first else {
            Issue.record("expected a close once nothing at all arrived for 30 s")
            return
        }
        #expect(error.code == .timeout)
    }

    @Test func anErrorFromThePeerIsReportedAndClosesWithoutReply() {
        var session = established()
        let error = WireError(.shuttingDown, "bye")
        #expect(session.received(.error(error), now: start) == [.peerReported(error), .close(nil)])
        #expect(session.isClosed)
        #expect(session.localAdvanced(to: VersionVector([me: 1]), now: start).isEmpty)
        #expect(session.tick(now: start.advanced(by: .seconds(60))).isEmpty)
    }

    @Test func aFailureReportedByTheTransportClosesOnce() {
        var session = established()
        let error = WireError(.invalidOperation, "gap")
        #expect(session.failed(error) == [.close(error)])
        #expect(session.failed(error).isEmpty)
    }

    @Test func aQueryAndAnAnswerGoToTheTransportAndTheSessionGoesOn() {
        var session = established()
        let query = CatalogQuery(id: 7, ask: .search(text: "dune", year: nil, page: 1))
        #expect(session.received(.query(query), now: start) == [.queried(query)])
        let answer = CatalogAnswer(id: 7, outcome: .failure(WireError(.rateLimited, "try again in 2 s")))
        #expect(session.received(.answer(answer), now: start) == [.answered(answer)])
        #expect(session.catalogMessage(.answer(answer), now: start) == [.send(.answer(answer))])
        #expect(!session.isClosed)
    }

    @Test func aQueryBeforeHelloIsUnexpectedAndNothingIsSentBeforeIt() {
        var session = Session(role: .dialer, localHello: hello(me), now: start)
        _ = session.start(now: start)
        let query = CatalogQuery(id: 1, ask: .search(text: "dune", year: nil, page: 1))
        #expect(session.catalogMessage(.query(query), now: start) == [])
        let actions = session.received(.query(query), now: start)
        #expect(actions.count == 1)
        guard case .close(let error?) = actions.first else {
            Issue.record("expected a close, got \(actions)")
            return
        }
        #expect(error.code == .unexpectedMessage)
    }
}
