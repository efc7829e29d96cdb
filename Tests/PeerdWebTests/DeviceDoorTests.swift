import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import PeerdModel
import PeerdTestKit
import PeerdWire
import Synchronization
import SystemPackage
import Testing

@testable import PeerdWeb

/// A stand-in for the daemon behind the device door: it records each request with the profile it
/// came with, and its event stream stays open (announced on `opened`) until the door ends it.
final class DeviceBackend: WebBackend {
    let asked = Mutex<[ControlRequest]>([])
    let (opened, open) = AsyncStream.makeStream(of: Void.self)

    func respond(to request: ControlRequest) async -> ControlResponse {
        asked.withLock { $0.append(request) }
        return .list(movies: [], total: 0, next: nil)
    }

    let followed = Mutex<[ControlRequest]>([])

    func events(for request: ControlRequest) async -> Result<PageEvents, WireError> {
        followed.withLock { $0.append(request) }
        open.yield()
        return .success(PageEvents(changes: ChangeFollow(AsyncStream { _ in }), picks: AsyncStream { _ in }))
    }

    func run() async {}
}

/// The device door (proto/WEB.md, "Devices") in-process: ``DeviceResponder`` with its gate, a
/// ``DeviceLedger`` in a scratch directory and a ``DeviceBackend``, through Hummingbird's router
/// test client (whose requests come from one address, and `Host: localhost`).
@Suite("The device door over Hummingbird", .timeLimit(.minutes(1)))
struct DeviceDoorTests {
    static let sam = DeviceBook.Member(peer: PeerID("0123456789abcdef0123456789abcdef")!, name: "sam")
    let backend = DeviceBackend()

    func test(_ body: @Sendable (any TestClientProtocol, DeviceLedger) async throws -> Void) async throws {
        try await withScratchDirectory("devices") { directory in
            let ledger = try await DeviceLedger.load(
                at: directory.appending("devices.json"),
                logger: Logger(label: "test")
            )
            ledger.listening(at: "http://localhost:80")
            let gate = BoundGate(DeviceGate(address: "localhost", port: 80))
            let responder = DeviceResponder(gate: gate, ledger: ledger, backend: backend, machine: "den")
            try await Application(responder: responder).test(.router) { try await body($0, ledger) }
        }
    }

    func link(_ ledger: DeviceLedger, for member: DeviceBook.Member = sam) async throws -> String {
        let record = try await ledger.link(for: member, name: nil, expiresIn: 600).get()
        return String(record.url.dropFirst("http://localhost:80".count))
    }

    func get(_ client: any TestClientProtocol, _ path: String, cookie: String? = nil) async throws -> TestResponse {
        try await client.executeRequest(
            uri: path,
            method: .get,
            headers: cookie.map { [.cookie: $0] } ?? [:],
            body: nil
        )
    }

    /// Opens `path` (a link) as a phone: its `peerd_device=…` cookie.
    func open(_ client: any TestClientProtocol, _ path: String) async throws -> String {
        let opened = try await client.executeRequest(
            uri: path,
            method: .get,
            headers: [.userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Mobile/15E148"],
            body: nil
        )
        #expect(opened.status == .seeOther && opened.headers[.location] == "/")
        let cookie = try #require(opened.headers[.setCookie])
        #expect(
            cookie.hasPrefix("peerd_device=") && cookie.contains("; HttpOnly") && cookie.contains("; SameSite=Strict")
        )
        #expect(cookie.contains("; Path=/"))
        // The second, for the page's script: the door's port, no secret.
        #expect(opened.headers[values: .setCookie].last == "peerd_door=80; Max-Age=34560000; Path=/; SameSite=Strict")
        return String(cookie.prefix { $0 != ";" })
    }

    @Test("a link opened once makes a device: its cookie opens the page; the link again is 401 with words")
    func aLinkOnce() async throws {
        try await test { client, ledger in
            let path = try await link(ledger)
            let cookie = try await open(client, path)
            #expect(ledger.records.map(\.name) == ["sam's phone"] && ledger.records[0].member == "sam")
            let page = try await get(client, "/", cookie: "theme=dark; \(cookie)")
            #expect(page.status == .ok && String(buffer: page.body).contains("<title>Watch list"))
            for field in WebHeaders.all { #expect(page.headers[field.name] == field.value) }

            let again = try await get(client, path)
            #expect(again.status == .unauthorized && again.headers[.setCookie] == nil)
            #expect(String(buffer: again.body).contains("used already"))
            #expect(ledger.records.count == 1)
        }
    }

    @Test("without a linked device: 401, words for the page (how to link again), the API's JSON error")
    func noDevice() async throws {
        try await test { client, _ in
            for cookie in [nil, "peerd_device=" + String(repeating: "A", count: 43), "peerd_device=short"] {
                let page = try await get(client, "/", cookie: cookie)
                #expect(page.status == .unauthorized && page.headers[.contentType]?.hasPrefix("text/html") == true)
                let words = String(buffer: page.body)
                #expect(words.contains("Ask someone at den to run <code>peerctl device link</code>"))
                let api = try await client.executeRequest(
                    uri: "/api/request",
                    method: .post,
                    headers: [.origin: "http://localhost:80", .cookie: cookie ?? ""],
                    body: ByteBuffer(string: #"{"type":"list","version":1}"#)
                )
                #expect(api.status == .unauthorized)
                #expect(String(buffer: api.body).contains(#""code":"forbidden""#))
            }
            // The manifest and its icons hold nothing, and browsers fetch them without cookies.
            let manifest = try await get(client, "/manifest.webmanifest")
            #expect(manifest.status == .ok && manifest.headers[.contentType] == "application/manifest+json")
            #expect(try await get(client, "/icon-192.png").status == .ok)
            #expect(backend.asked.withLock { $0 }.isEmpty)
        }
    }

    @Test("every request acts for the device's member, whatever profile it names; peerctl's are refused")
    func actsForItsMember() async throws {
        try await test { client, ledger in
            let cookie = try await open(client, try await link(ledger))
            for body in [#"{"type":"list","version":1}"#, #"{"type":"list","version":1,"profile":"alice"}"#] {
                let answer = try await client.executeRequest(
                    uri: "/api/request",
                    method: .post,
                    headers: [.origin: "http://localhost:80", .cookie: cookie],
                    body: ByteBuffer(string: body)
                )
                #expect(answer.status == .ok)
            }
            let page = try await client.executeRequest(
                uri: "/api/request",
                method: .post,
                headers: [.origin: "http://localhost:80", .cookie: cookie],
                body: ByteBuffer(string: #"{"type":"deviceLink","version":1}"#)
            )
            #expect(page.status == .forbidden)
            let profiles = backend.asked.withLock { $0.map(\.profile) }
            #expect(profiles == [Self.sam.peer?.rawValue, Self.sam.peer?.rawValue])
        }
    }

    @Test(
        "a device's event stream follows its list as its member; unlinking ends it at once, and its next request is 401"
    )
    func unlinkEndsIt() async throws {
        try await test { client, ledger in
            let cookie = try await open(client, try await link(ledger))
            let id = try #require(ledger.records.first?.id)
            let opened = backend.opened
            async let stream = get(client, "/api/events?list=kids&profile=bob", cookie: cookie)
            #expect(try await firstEvent(of: opened) != nil, "the event stream opened")
            // The list it names, as the device's member: what it says of its profile is not heard.
            let followed = backend.followed.withLock { $0 }
            #expect(followed.map(\.list) == ["kids"] && followed.map(\.profile) == [Self.sam.peer?.rawValue])
            #expect(await ledger.unlink(id)?.name == "sam's phone")
            #expect(try await stream.status == .ok, "the stream ended")
            #expect(try await get(client, "/", cookie: cookie).status == .unauthorized)
            #expect(ledger.records.isEmpty && !ledger.needsDoor)
        }
    }

    @Test("a removed member's devices are unlinked; the others stay, and survive a restart")
    func removedMembersAndRestart() async throws {
        try await withScratchDirectory("devices") { directory in
            let path = directory.appending("devices.json")
            let ledger = try await DeviceLedger.load(at: path, logger: Logger(label: "test"))
            ledger.listening(at: "http://localhost:80")
            let alice = DeviceBook.Member(peer: nil, name: "alice")
            for member in [Self.sam, alice] {
                let code = try await ledger.link(for: member, name: nil, expiresIn: 600).get().url.split(separator: "/")
                    .last!
                _ = try await ledger.redeem(code: code, from: "10.0.0.7", userAgent: "SMART-TV").get()
            }
            await ledger.unlinkMembers(why: "its member was removed from the group") { $0 == Self.sam.peer }
            #expect(ledger.records.map(\.name) == ["alice's TV"])
            let reopened = try await DeviceLedger.load(at: path, logger: Logger(label: "test"))
            #expect(reopened.records == ledger.records)
            #expect(try path.stat().permissions == [.ownerReadWrite])
        }
    }
}
