import Foundation
import Logging
import NIOPosix
import PeerdModel
import PeerdSecurity
import PeerdStore
import PeerdTestKit
import PeerdWire
import ServiceLifecycleTestKit
import SystemPackage
import Testing

@testable import PeerdDaemon

/// ``ControlResponder`` in process: the real replica service over a store in memory, a real
/// directory and trust list, and the dialer with its network behind ``ScriptedDialing``.
@Suite("The control responder")
struct ControlResponderTests {
    static let refused = DialTarget.Outcome(error: "connection refused", refused: true)

    /// Runs a responder (and the services it asks) until `body` returns; `catalog` stands in for
    /// TMDB where a test gives one.
    func withResponder(
        catalog: (any CatalogAccess)? = nil,
        _ body: (ControlResponder, MemoryStore, ScriptedDialing) async throws -> Void
    ) async throws {
        // The state directory is made by `StateDirectory`, inside a scratch one.
        let root = try ScratchDirectory("responder")
        defer { root.remove() }
        let scratch = root.path.appending("state")
        let logger = Logger(label: "test")
        let identity = try PeerIdentity.generate(name: "alice")
        let (store, dialing) = (MemoryStore(), ScriptedDialing(outcome: Self.refused))
        let replica = ReplicaService.testing(identity, name: "alice", store: store)
        let directory = PeerDirectory(localID: identity.peer)
        let trust = try TrustService(
            local: identity.peer,
            path: scratch.appending("trust.json"),
            groupKey: nil,
            logger: logger
        )
        let state = try StateDirectory(at: scratch, logger: logger)
        let lists = try ListSpaces(
            group: replica,
            identity: identity,
            state: state,
            name: "alice",
            threadPool: .singleton,
            logger: logger
        )
        let dialer = PeerDialer(
            initial: [],
            state: state,
            directory: directory,
            trust: trust,
            dialing: dialing,
            logger: logger
        )
        let responder = ControlResponder(
            replica: replica,
            lists: lists,
            directory: directory,
            dialer: dialer,
            trust: trust,
            catalog: catalog,
            discovery: DiscoveryStatus(localID: identity.peer, enabled: false),
            info: DaemonInfo(
                identity: identity.peer,
                name: "alice",
                port: 7601,
                listenAddress: "127.0.0.1",
                stateDir: scratch.string,
                socketPath: "/run/test.sock",
                mdns: false,
                tmdb: false,
                page: nil
            ),
            imports: ImportJournals(stateDirectory: scratch)
        )
        try await testGracefulShutdown { shutdown in
            try await withThrowingTaskGroup { group in
                group.addTask { try await replica.run() }
                group.addTask { try await lists.run() }
                group.addTask { try await dialer.run() }
                try await body(responder, store, dialing)
                shutdown.triggerGracefulShutdown()
                try await group.waitForAll()
            }
        }
    }

    @Test func anAddIsWrittenListedAndOnlyOnce() async throws {
        try await withResponder { responder, store, _ in
            let matrix = Movie(id: MovieID(603)!, title: "The Matrix", year: 1999)
            guard case .added(let record, let operation?) = await responder.respond(to: AddRequest(movie: matrix))
            else {
                Issue.record("the first add is an operation")
                return
            }
            #expect(record.movieId == 603 && record.addedBy == ["alice"])
            #expect(store.operations.map(\.id) == [operation], "durable before it was acknowledged")
            #expect(await responder.respond(to: AddRequest(movie: matrix)) == .added(movie: record, operation: nil))
            guard
                case .list(let movies, let total, nil) = await responder.respond(
                    to: ListRequest(limit: nil, after: nil)
                )
            else {
                Issue.record("a list of one page")
                return
            }
            #expect(movies.map(\.movieId) == [603] && total == 1)
            #expect(await responder.status().movies == 1)
        }
    }

    @Test func removingAMovieThatIsNotListedSaysSo() async throws {
        try await withResponder { responder, store, _ in
            let response = await responder.respond(to: RemoveRequest(movie: MovieID(550)!))
            #expect(response == .error(WireError(.notListed, "movie 550 is not on the list")))
            #expect(store.operations.isEmpty)
        }
    }

    @Test(arguments: [
        ControlRequest(ListRequest(limit: 0, after: nil)), ControlRequest(ListRequest(after: "not-a-cursor")),
        ControlRequest(ConnectRequest(address: "no port")),
    ])
    func aBadRequestIsRefusedWithItsReason(request: ControlRequest) async throws {
        try await withResponder { responder, _, _ in
            guard case .error(let error) = await responder.respond(to: request) else {
                Issue.record("\(request) is refused")
                return
            }
            #expect(error.code == .badRequest)
        }
    }

    @Test(.timeLimit(.minutes(1))) func connectDialsTheAddressAtOnce() async throws {
        try await withResponder { responder, _, dialing in
            var dials = dialing.dials.stream.makeAsyncIterator()
            #expect(
                await responder.respond(to: ConnectRequest(address: "192.0.2.7:7601"))
                    == .connecting(address: "192.0.2.7:7601")
            )
            #expect(await dials.next() == [PeerAddress(host: "192.0.2.7", port: 7601)])
        }
    }

    @Test func theFollowStreamAndAPageThatIsOffAreNotAnsweredHere() async throws {
        try await withResponder { responder, _, _ in
            guard case .error(let follow) = await responder.respond(to: FollowRequest()),
                case .error(let page) = await responder.respond(to: PageRequest())
            else {
                Issue.record("both are errors")
                return
            }
            #expect(follow.code == .internal)
            #expect(page.code == .unavailable && page.message.contains("--no-web"))
        }
    }
}

/// The router's switch is over types, which the compiler can't check for a missing case: each kind
/// of request, as proto/golden/ spells one, gets its desk's answer.
@Suite("The control router")
struct ControlRouterTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../proto/golden").standardizedFileURL

    /// One golden request of each kind but `join`, which waits for its inviter (JoinRefusalTests).
    static func requests() throws -> [ControlRequest] {
        let names = try FileManager.default.contentsOfDirectory(atPath: golden.path)
            .filter { $0.hasPrefix("control-request-") && $0.hasSuffix(".bin") }.sorted()
        var seen: Set<String> = []
        return try names.compactMap { name in
            let bytes = try Data(contentsOf: golden.appendingPathComponent(name)).dropFirst(4)
            guard let request = try? WireCoding.decode(ControlRequest.self, from: Array(bytes)),
                seen.insert(request.type).inserted, request.type != "join"
            else { return nil }
            return request
        }
    }

    @Test func everyKindOfRequestHasAGoldenFrameAndReachesItsDesk() async throws {
        let requests = try Self.requests()
        #expect(Set(requests.map(\.type)).union(["join"]) == Set(ControlRequest.tags))
        try await ControlResponderTests().withResponder { responder, _, _ in
            for request in requests where request.type != "follow" {
                let answer = await responder.respond(to: request)
                if case .error(let error) = answer {
                    #expect(!error.message.contains("streamed by the control server"), "\(request.type) is routed")
                }
            }
        }
    }
}
