import NIOCore
import PeerdModel
import PeerdSync
import PeerdWire
import Testing

/// Lists on a connection (proto/PEER.md, "How a list travels"): a session of its own per open list,
/// inside the connection, only between two ends whose hellos said `lists`.
@Suite("List sessions")
struct ListSessionTests {
    let friends = ListID("0f1e2d3c4b5a69788796a5b4c3d2e1f0")!
    let kids = ListID("1f1e2d3c4b5a69788796a5b4c3d2e1f0")!

    /// The lists the messages name.
    func lists(_ messages: [PeerMessage]) -> Set<ListID> {
        Set(messages.compactMap { if case .list(let id, _) = $0 { id } else { nil } })
    }

    @Test func twoEndsCatchUpOnAListAndPushWhatEachCommitsLater() {
        var link = ConnectionLink()
        let (a, b) = (link.ends[0].peer, link.ends[1].peer)
        link.ends[0].held[friends] = (1...30).map { op(a, $0) }
        link.ends[1].held[friends] = [op(b, 1), op(third, 1)]
        link.open(friends, at: 0)
        #expect(link.ends[1].offered == [friends])
        #expect(link.ends[0].machine.openLists == [friends] && link.ends[1].machine.openLists == [friends])
        for end in link.ends { #expect(end.vector(friends) == VersionVector([a: 30, b: 1, third: 1])) }

        link.commit([op(b, 2)], in: friends, at: 1)
        #expect(link.ends[0].vector(friends)[b] == 2)
        #expect(link.ends[0].held[friends]?.count == 33, "each operation once")
        // Nothing of the list travelled outside its `list` messages, and nothing in the group's session.
        for end in link.ends {
            #expect(!end.sent.contains { $0.type == "ops" })
            #expect(lists(end.sent) == [friends])
            #expect(end.closed.isEmpty && end.ended.isEmpty)
        }
    }

    @Test func aListNeverOpenedIsNeverSent() {
        var link = ConnectionLink()
        let a = link.ends[0].peer
        link.ends[0].held[friends] = [op(a, 1)]
        link.ends[0].held[kids] = [op(a, 1), op(a, 2)]
        link.open(friends, at: 0)
        link.commit([op(a, 3)], in: kids, at: 0)
        #expect(link.ends[1].held[kids] == nil)
        #expect(lists(link.ends[0].sent) == [friends])
    }

    @Test func aPeerWhoseHelloSaysNoListsIsSentNoListMessage() {
        var link = ConnectionLink(olderRemote: true)
        link.ends[0].held[friends] = [op(link.ends[0].peer, 1)]
        #expect(!link.ends[0].machine.carriesLists && link.ends[0].machine.remote != nil)
        link.open(friends, at: 0)
        link.commit([op(link.ends[0].peer, 2)], in: friends, at: 0)
        #expect(link.ends[0].sent.allSatisfy { $0.type != "list" })
        #expect(link.ends[0].machine.openLists.isEmpty && link.ends[1].offered.isEmpty)
    }

    @Test func aListMessageFromAPeerWhoseHelloSaidNoListsClosesTheConnection() {
        var link = ConnectionLink(olderRemote: true)
        link.inject(WireCoding.encode(PeerMessage.list(friends, .hello(link.ends[1].hello()))), from: 1)
        link.pump()
        #expect(link.ends[0].closed.first??.code == .unexpectedMessage)
        #expect(link.ends[0].machine.isClosed)
    }

    @Test func theirErrorEndsTheListAloneAndTheConnectionGoesOn() {
        var link = ConnectionLink()
        link.open(friends, at: 0)
        let forbidden = WireError(.forbidden, "no member of this list lives on your machine any more")
        link.perform(1, link.ends[1].machine.closeList(friends, forbidden))
        link.pump()
        #expect(link.ends[1].sent.last == .list(friends, .error(forbidden)))
        #expect(link.ends[0].ended[friends] == forbidden && link.ends[1].ended[friends] == forbidden)
        #expect(link.ends[0].machine.openLists.isEmpty && link.ends[1].machine.openLists.isEmpty)
        #expect(!link.ends[0].machine.isClosed && !link.ends[1].machine.isClosed)
        #expect(link.ends[0].machine.received(frame(.ping), now: start) == .session([.send(.pong)]))
        // What comes for a list that is not open, but its hello, is ignored.
        let late = PeerMessage.list(friends, .ops([op(link.ends[1].peer, 1)]))
        #expect(link.ends[0].machine.received(frame(late), now: start) == .session([]))
        #expect(!link.ends[0].machine.isClosed && link.ends[0].held[friends] == nil)
    }

    @Test func aListTheOtherEndDoesNotTakeIsRefusedAloneAndCanBeOpenedAgain() {
        var link = ConnectionLink()
        link.ends[1].takesLists = false
        link.ends[0].held[friends] = [op(link.ends[0].peer, 1)]
        link.open(friends, at: 0)
        #expect(link.ends[0].ended[friends]??.code == .rateLimited)
        #expect(link.ends[0].machine.openLists.isEmpty && link.ends[1].held[friends] == nil)
        link.ends[1].takesLists = true
        link.open(friends, at: 0)
        #expect(link.ends[1].vector(friends) == link.ends[0].vector(friends))
    }

    @Test func bothEndsOpeningAtOnceMakeOneSession() {
        var link = ConnectionLink()
        let (a, b) = (link.ends[0].peer, link.ends[1].peer)
        link.ends[0].held[friends] = [op(a, 1)]
        link.ends[1].held[friends] = [op(b, 1)]
        let helloA = link.ends[0].hello(link.ends[0].vector(friends))
        let helloB = link.ends[1].hello(link.ends[1].vector(friends))
        let openedA = link.ends[0].machine.openList(friends, localHello: helloA, now: start)
        let openedB = link.ends[1].machine.openList(friends, localHello: helloB, now: start)
        link.perform(0, openedA)
        link.perform(1, openedB)
        link.pump()
        #expect(link.ends[0].offered.isEmpty && link.ends[1].offered.isEmpty)
        for end in link.ends { #expect(end.vector(friends) == VersionVector([a: 1, b: 1])) }
    }

    @Test(
        "a list carrying a ping, or another list, closes the connection as a malformed frame",
        arguments: [
            #"{"list":"0f1e2d3c4b5a69788796a5b4c3d2e1f0","message":{"type":"ping"},"type":"list"}"#,
            #"{"list":"0f1e2d3c4b5a69788796a5b4c3d2e1f0","message":{"list":"0f1e2d3c4b5a69788796a5b4c3d2e1f0","#
                + #""message":{"ops":[],"type":"ops"},"type":"list"},"type":"list"}"#,
        ]
    )
    func aListCarriesOnlyAListsMessages(_ body: String) {
        var link = ConnectionLink()
        link.open(friends, at: 0)
        link.inject(Array(body.utf8), from: 1)
        link.pump()
        #expect(link.ends[0].closed.first??.code == .malformedFrame)
    }

    @Test func listFramesCountTowardTheRateLimit() {
        var link = ConnectionLink(
            rateLimit: .init(framesPerSecond: 1, frameBurst: 12, bytesPerSecond: 1 << 20, byteBurst: 1 << 20)
        )
        link.ends[0].held[friends] = (1...100).map { op(link.ends[0].peer, $0) }
        link.open(friends, at: 0)
        #expect(link.ends[1].closed.first??.code == .rateLimited)
    }

    @Test func aListsRelayTreeTimersAreTheConnectionsToo() {
        var link = ConnectionLink()
        link.open(friends, at: 0)
        link.inject(WireCoding.encode(PeerMessage.list(friends, .prune([third]))), from: 1)
        link.pump()
        link.commit([op(third, 1)], in: friends, at: 0)
        #expect(link.ends[0].sent.last == .list(friends, .have(VersionVector([third: 1]))), "announced, not pushed")
        #expect(link.ends[1].machine.outlook(now: start).deadline == start + .seconds(1), "its graft")
        link.commit([op(third, 2)], in: friends, at: 0)
        #expect(link.ends[0].machine.outlook(now: start).deadline == start + .seconds(5), "the next have")
        let ticked = link.ends[0].machine.tick(now: start + .seconds(5))
        #expect(ticked == [.send(.list(friends, .have(VersionVector([third: 2]))))])
    }

    @Test func aListsSessionKeepsNoTimeOfItsOwn() {
        var link = ConnectionLink()
        let hello = link.ends[0].hello()
        // The other end never answers: the list waits, the connection's keepalive alone runs.
        let opened = link.ends[0].machine.openList(friends, localHello: hello, now: start)
        #expect(opened == [.send(.list(friends, .hello(hello)))])
        let outlook = link.ends[0].machine.outlook(now: start)
        #expect(outlook.deadline == start + .seconds(10), "the connection's ping, nothing sooner")
        let ticked = link.ends[0].machine.tick(now: start + .seconds(10))
        #expect(ticked == [.send(.ping)])
        #expect(link.ends[0].machine.openLists == [friends])
    }
}
