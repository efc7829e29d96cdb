import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PeerdModel
import PeerdWire
import Synchronization
import Testing

@testable import PeerdWeb

/// A stand-in for the daemon: it answers `status` and `list`, records what it was asked, and
/// streams one change. The real daemon behind the API is tested end to end in integration/web.
final class FakeBackend: WebBackend {
    let asked = Mutex<[String]>([])

    func respond(to request: ControlRequest) async -> ControlResponse {
        asked.withLock { $0.append(request.type) }
        return .list(movies: [], total: 0, next: nil)
    }

    /// The event streams asked for, each as its `follow`.
    let followed = Mutex<[ControlRequest]>([])

    /// One change and one pick event; a list called `gone` is none this machine holds.
    func events(for request: ControlRequest) async -> Result<PageEvents, WireError> {
        followed.withLock { $0.append(request) }
        if request.list == "gone" { return .failure(WireError(.badRequest, "there is no list called gone")) }
        return .success(PageEvents(changes: follow(), picks: pickEvents()))
    }

    /// One change, the golden frame's: bob adds 603.
    func follow() -> ChangeFollow {
        let origin = PeerID("e47d41781ad71e3c12901eaf77360415")!
        let op = Operation(
            id: OperationID(origin: origin, seq: 4),
            lamport: 9,
            at: 1_763_700_000_000,
            by: "alice",
            kind: .add,
            movie: Movie(id: MovieID(603)!, title: "The Matrix", year: 1999)
        )
        let row = WatchListRow(adds: [op])!
        typealias Operation = PeerdModel.Operation
        let (changes, sink) = AsyncStream.makeStream(of: [WatchListChange].self)
        sink.yield([.added(row, by: op)])
        sink.finish()
        return ChangeFollow(changes)
    }

    /// One pick event: the golden `pickState` response, as `pickStatus` answers it.
    func pickEvents() -> AsyncStream<PickEvent> {
        let (events, sink) = AsyncStream.makeStream(of: PickEvent.self)
        if let state = try? WireCoding.decode(ControlResponse.self, from: ByteBuffer(bytes: Self.pickStateJSON)) {
            sink.yield(PickEvent(state))
        }
        sink.finish()
        return events
    }

    func run() async {}

    /// The golden `pickState` response's JSON (proto/golden), without its frame's length.
    static let pickStateJSON: [UInt8] = {
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../proto/golden/control-response-pickState.bin")
        return Array(((try? Data(contentsOf: golden)) ?? Data(count: 4)).dropFirst(4))
    }()

    static let changeJSON = """
        {"at":1763700000000,"by":"alice","change":"added","movieId":603,"peer":"e47d41781ad71e3c12901eaf77360415",\
        "title":"The Matrix","type":"change","year":1999}
        """
}

@Suite("The page's API over Hummingbird")
struct WebAPITests {
    let token = WebToken.random()
    let backend = FakeBackend()

    /// The router test client sends `Host: localhost`, which is the page on HTTP's port 80.
    func test(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let router = WebRoutes.router(gate: WebGate(token: token, port: 80), backend: backend)
        try await Application(router: router).test(.router, body)
    }

    func headers(origin: Bool = true) -> HTTPFields {
        var fields: HTTPFields = [.authorization: "Bearer \(token.hex)", .contentType: "application/json"]
        if origin { fields[.origin] = "http://localhost" }
        return fields
    }

    @Test("a control request is answered with its control response and every security header")
    func answersAControlRequest() async throws {
        try await test { client in
            try await client.execute(
                uri: "/api/request",
                method: .post,
                headers: headers(),
                body: ByteBuffer(string: #"{"type":"list","version":1,"limit":50}"#)
            ) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == #"{"movies":[],"total":0,"type":"list"}"#)
                for field in WebHeaders.all { #expect(response.headers[field.name] == field.value) }
            }
        }
        #expect(backend.asked.withLock { $0 } == ["list"])
    }

    @Test("follow, connect and the rest of peerctl's requests are 403 and never reach the daemon")
    func peerctlOnlyRequestsAreForbidden() async throws {
        try await test { client in
            for body in [
                #"{"type":"follow","version":1}"#, #"{"type":"connect","version":1,"address":"a:1"}"#,
                #"{"type":"diagnose","version":1}"#,
            ] {
                try await client.execute(
                    uri: "/api/request",
                    method: .post,
                    headers: headers(),
                    body: ByteBuffer(string: body)
                ) { response in
                    #expect(response.status == .forbidden)
                    #expect(String(buffer: response.body).contains(#""code":"forbidden""#))
                }
            }
        }
        #expect(backend.asked.withLock { $0 }.isEmpty)
    }

    @Test("a body that isn't a control request is 400 with an error; one over 64 KiB is 413")
    func badBodies() async throws {
        try await test { client in
            try await client.execute(
                uri: "/api/request",
                method: .post,
                headers: headers(),
                body: ByteBuffer(string: "{")
            ) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains(#""code":"malformed-frame""#))
            }
            let big = ByteBuffer(repeating: UInt8(ascii: " "), count: 64 * 1024 + 1)
            try await client.execute(uri: "/api/request", method: .post, headers: headers(), body: big) { response in
                #expect(response.status == .contentTooLarge)
                #expect(response.headers[.contentSecurityPolicy] != nil)
            }
        }
        #expect(backend.asked.withLock { $0 }.isEmpty)
    }

    @Test("no token is 401, with one line and no data")
    func noToken() async throws {
        try await test { client in
            try await client.execute(
                uri: "/api/request",
                method: .post,
                headers: [.origin: "http://localhost"],
                body: ByteBuffer(string: #"{"type":"list","version":1}"#)
            ) { response in
                #expect(response.status == .unauthorized)
                #expect(!String(buffer: response.body).contains("movies"))
            }
        }
        #expect(backend.asked.withLock { $0 }.isEmpty)
    }

    @Test("the page is served as its files, and unknown paths are 404")
    func pageFiles() async throws {
        try await test { client in
            for (path, type) in [("/", "text/html"), ("/app.js", "text/javascript"), ("/app.css", "text/css")] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType]?.hasPrefix(type) == true, "\(path)")
                    #expect(response.body.readableBytes > 0)
                }
            }
            try await client.execute(uri: "/favicon.ico", method: .get) { #expect($0.status == .noContent) }
            try await client.execute(uri: "/etc/passwd", method: .get) { #expect($0.status == .notFound) }
        }
    }

    @Test("a method a route doesn't take is 405 with the methods it takes in Allow")
    func wrongMethodSaysWhatIsAllowed() async throws {
        try await test { client in
            try await client.execute(uri: "/app.js", method: .post, headers: headers(origin: true)) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET, HEAD")
            }
            try await client.execute(uri: "/api/request", method: .get, headers: headers(origin: false)) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "POST")
            }
        }
    }

    @Test("the event stream: follow's changes as `event: change`, each pick's whole state as `event: pick`")
    func eventStream() async throws {
        try await test { client in
            try await client.execute(uri: "/api/events", method: .get, headers: headers(origin: false)) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/event-stream") == true)
                let text = String(buffer: response.body)
                #expect(text.contains("event: change\ndata: {"))
                #expect(text.contains(#""movieId":603"#))
                // The pick's state exactly as `pickStatus` answers it: the page needs not ask again.
                let state = String(decoding: FakeBackend.pickStateJSON, as: UTF8.self)
                #expect(state.contains(#""type":"pickState""#) && state.contains(#""voters":["#))
                #expect(text.contains("event: pick\ndata: \(state)\n\n"))
                #expect(text.hasSuffix("}\n\n"))
            }
        }
    }

    @Test("the event stream follows the list and profile its query names; a list not held is 404, bad words 400")
    func eventStreamOfAList() async throws {
        try await test { client in
            let uri = "/api/events?list=5f3c1a9e0b7d4c2e8a6f1b3d5c7e9a0b&profile=sam%20x"
            try await client.execute(uri: uri, method: .get, headers: headers(origin: false)) { response in
                #expect(response.status == .ok)
            }
            let asked = backend.followed.withLock { $0 }
            #expect(asked.map(\.type) == ["follow"])
            #expect(asked.first?.list == "5f3c1a9e0b7d4c2e8a6f1b3d5c7e9a0b")
            #expect(asked.first?.profile == "sam x")
            try await client.execute(uri: "/api/events?list=gone", method: .get, headers: headers(origin: false)) {
                #expect($0.status == .notFound)
                #expect(String(buffer: $0.body).contains("there is no list called gone"))
            }
            let long = String(repeating: "a", count: 65)
            for query in ["list=", "list=a&list=b", "other=1", "list=\(long)", "list=a%0Ab"] {
                try await client.execute(uri: "/api/events?\(query)", method: .get, headers: headers(origin: false)) {
                    #expect($0.status == .badRequest, "\(query)")
                    #expect(String(buffer: $0.body).contains(#""code":"bad-request""#), "\(query)")
                }
            }
            #expect(backend.followed.withLock { $0.count } == 2)
        }
    }
}
