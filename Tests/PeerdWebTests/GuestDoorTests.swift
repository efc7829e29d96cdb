import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PeerdModel
import PeerdTestKit
import PeerdWire
import Testing

@testable import PeerdWeb

/// The guest door (proto/WEB.md, "Guests") in-process: ``GuestResponder`` with its gate, ledger and
/// a ``FakeGuestDesk``, through Hummingbird's router test client, as the page's API is tested.
@Suite("The guest door over Hummingbird")
struct GuestDoorTests {
    let key = GuestKey(WebToken.random())
    let desk = FakeGuestDesk()

    var link: String { "/g/\(key.capability(for: FakeGuestDesk.pick))" }

    /// The router test client sends `Host: localhost`, which is the door on HTTP's port 80.
    func test(_ body: @Sendable (any TestClientProtocol, GuestLedger) async throws -> Void) async throws {
        let ledger = GuestLedger(key: key)
        ledger.update(await desk.ownPicks())
        let gate = BoundGate(GuestGate(address: "localhost", port: 80))
        let responder = GuestResponder(gate: gate, ledger: ledger, desk: desk)
        try await Application(responder: responder).test(.router) { try await body($0, ledger) }
    }

    func post(_ client: any TestClientProtocol, _ path: String, _ json: String, token: String? = nil) async throws
        -> TestResponse
    {
        var headers: HTTPFields = [.origin: "http://localhost:80", .contentType: "application/json"]
        if let token { headers[.authorization] = "Guest \(token)" }
        return try await client.executeRequest(
            uri: path,
            method: .post,
            headers: headers,
            body: ByteBuffer(string: json)
        )
    }

    func get(_ client: any TestClientProtocol, _ path: String) async throws -> TestResponse {
        try await client.executeRequest(uri: path, method: .get, headers: [:], body: nil)
    }

    @Test("a valid link serves the page and the pick as a guest sees it, with the page's headers")
    func aValidLink() async throws {
        try await test { client, _ in
            let page = try await get(client, "\(link)/")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
            let state = try await get(client, "\(link)/state")
            #expect(state.status == .ok)
            let record = try WireCoding.decode(GuestStateRecord.self, from: state.body)
            #expect(record.deck.map(\.movieId) == FakeGuestDesk.deck && record.open && record.you == nil)
            for response in [page, state] {
                for field in WebHeaders.all { #expect(response.headers[field.name] == field.value) }
            }
            let bare = try await get(client, link)
            #expect(bare.status == .permanentRedirect && bare.headers[.location] == "\(link)/")
        }
    }

    @Test("a forged link is not found and makes nothing; a forged token is unauthorized and votes nothing")
    func aForgedLink() async throws {
        try await test { client, _ in
            let forged = "/g/" + String(repeating: "A", count: 22)
            #expect(try await get(client, "\(forged)/state").status == .notFound)
            let join = try await post(client, "\(forged)/join", #"{"name":"Mallory"}"#)
            #expect(join.status == .notFound && String(buffer: join.body) == "no such page\n")
            #expect(try await post(client, "\(forged)/vote", #"{"movie":603,"yes":true}"#).status == .notFound)

            let otherPick = PickOnList(OperationID(origin: FakeGuestDesk.pick.id.origin, seq: 8))
            let elsewhere = key.token(for: Pick.Guest(id: "00000000000000aa", name: "Sam"), in: otherPick)
            for token in [nil, "x.y.z", elsewhere] {
                let vote = try await post(client, "\(link)/vote", #"{"movie":603,"yes":true}"#, token: token)
                #expect(vote.status == .unauthorized, "token \(token ?? "none")")
                let error = try WireCoding.decode(GuestErrorRecord.self, from: vote.body)
                #expect(error.error.code == "unauthorized" && error.error.message.contains("join first"))
            }
            #expect(desk.votes.isEmpty)
        }
    }

    @Test("a closed pick answers 410 closed with its result, or none; its page a line of text")
    func aClosedPick() async throws {
        try await test { client, ledger in
            desk.close(result: FakeGuestDesk.card(603, "The Matrix", 1999))
            ledger.update(await desk.ownPicks())
            let state = try await get(client, "\(link)/state")
            #expect(state.status == .gone)
            let closed = try WireCoding.decode(GuestErrorRecord.self, from: state.body)
            #expect(closed.error.code == "closed")
            #expect(closed.error.message == "This pick is closed. Tonight: The Matrix (1999).")
            #expect(closed.result == FakeGuestDesk.card(603, "The Matrix", 1999))
            let page = try await get(client, "\(link)/")
            #expect(page.status == .gone && String(buffer: page.body).contains("This pick is closed."))
            let vote = try await post(client, "\(link)/vote", #"{"movie":603,"yes":true}"#)
            #expect(vote.status == .gone)

            desk.close(result: nil)
            ledger.update(await desk.ownPicks())
            let none = try await get(client, "\(link)/state")
            #expect(none.status == .gone)
            #expect(String(buffer: none.body).contains(#""result""#) == false, "absent when none was chosen")
            #expect(try WireCoding.decode(GuestErrorRecord.self, from: none.body).error.message.hasSuffix("chosen."))
        }
    }

    @Test("a guest joins by name and votes with the token: the desk gets the vote, the guest their state")
    func aVote() async throws {
        try await test { client, _ in
            let join = try await post(client, "\(link)/join", #"{"name":"  Sam "}"#)
            #expect(join.status == .ok)
            let joined = try WireCoding.decode(GuestJoinRecord.self, from: join.body)
            #expect(joined.guest.name == "Sam" && joined.guest.id.count == 16)

            let vote = try await post(client, "\(link)/vote", #"{"movie":603,"yes":true}"#, token: joined.token)
            #expect(vote.status == .ok)
            let seen = try WireCoding.decode(GuestStateRecord.self, from: vote.body)
            #expect(seen.you?.votes == ["603": true] && seen.you?.name == "Sam")
            #expect(desk.votes == [.init(movie: 603, yes: true, guest: joined.guest)])

            let state = try await client.executeRequest(
                uri: "\(link)/state",
                method: .get,
                headers: [.authorization: "Guest \(joined.token)"],
                body: nil
            )
            #expect(try WireCoding.decode(GuestStateRecord.self, from: state.body).you?.votes == ["603": true])

            // The desk's refusal keeps its status; a name out of bounds is the door's.
            let outside = try await post(client, "\(link)/vote", #"{"movie":999,"yes":true}"#, token: joined.token)
            #expect(outside.status == .badRequest)
            #expect(try WireCoding.decode(GuestErrorRecord.self, from: outside.body).error.code == "bad-request")
            #expect(try await post(client, "\(link)/join", #"{"name":"   "}"#).status == .badRequest)
            #expect(desk.votes.count == 1)
        }
    }

    @Test("the events stream says `pick` on each change of this pick, and ends after its close")
    func theEventsStream() async throws {
        try await test { client, _ in
            let (listening, checks) = (desk.subscriptions.subscribe(), desk.openChecks.subscribe())
            async let response = get(client, "\(link)/events")
            let subscribed = try await firstEvent(of: listening)
            #expect(subscribed != nil, "the stream subscribed to the pick's changes")
            desk.changes.send([FakeGuestDesk.pick])
            // Sent, and the stream asked whether the pick is still open: it was.
            let checked = try await firstEvent(of: checks)
            #expect(checked != nil)
            desk.changes.send([PickOnList(OperationID(origin: FakeGuestDesk.pick.id.origin, seq: 99))])
            desk.close(result: nil)
            let events = try await response
            #expect(events.status == .ok)
            #expect(events.headers[.contentType] == "text/event-stream; charset=utf-8")
            // A keep-alive comment may come between them on a slow machine (the stream's own interval):
            // the events are what counts.
            let blocks = String(buffer: events.body).split(separator: "\n\n").filter { !$0.hasPrefix(":") }
            #expect(blocks == ["event: pick\ndata: {}", "event: pick\ndata: {}"])
            #expect(String(buffer: events.body).hasSuffix("\n\n"))
        }
    }
}
