import Foundation
import PeerdCodec
import PeerdModel
import PeerdSecurity
import PeerdTestKit
import PeerdTestSupport
import PeerdWire
import Testing

/// proto/PEER.md, "Operations can grow", with real daemons: operations a later version made (a field
/// and a kind this version does not know) are accepted, written to the log, kept across a restart,
/// relayed byte for byte, and verified by a third peer.
@Suite("Operations can grow, end to end")
struct OperationsCanGrowEndToEndTests {
    static func logHolds(_ daemon: TestDaemon, _ operation: PeerdModel.Operation) throws -> Bool {
        let log = try Data(contentsOf: URL(fileURLWithPath: daemon.stateDir + "/operations.log"))
        return log.range(of: Data(OperationJSON.encode(operation))) != nil
    }

    static func add(_ movie: Int, title: String, lamport: UInt64) -> PeerdModel.Operation {
        PeerdModel.Operation(
            id: OperationID(origin: PeerID("00000000")!, seq: 1),
            lamport: lamport,
            at: 1_763_700_000_000,
            by: "later",
            kind: .add,
            movie: Movie(id: MovieID(movie)!, title: title)
        )
    }

    @Test func aLaterVersionsOperationsAreKeptRelayedAndVerifiedByteForByte() async throws {
        let scratch = try ScratchDirectory("later-version")
        let alice = try TestDaemon("alice", in: scratch)
        let identity = try PeerIdentity.generate(name: "later")
        var origin = LaterVersionOperation(identity: identity)
        let withField = try origin.next(
            Self.add(603, title: "The Matrix", lamport: 1),
            extra: ["mood": .object(["stars": .integer(5), "tags": .array([.string("rewatch")])])]
        )
        let rating = try origin.next(
            Self.add(603, title: "The Matrix", lamport: 2),
            extra: ["stars": .integer(4)],
            kind: "rate"
        )
        let chainedAfter = try origin.next(Self.add(680, title: "Pulp Fiction", lamport: 3))
        let sent = [withField, rating, chainedAfter]
        #expect(withField.verbatim != nil && rating.verbatim != nil && chainedAfter.verbatim == nil)

        let hello = PeerMessage.Hello(peer: identity.peer, name: "later", port: 1, vector: VersionVector())
        let exchange = try await InsiderConnection.exchange(
            port: alice.port,
            groupSecret: TestDaemon.testGroupSecret,
            identity: identity,
            timeout: .seconds(3)
        ) { _ in
            [
                RawConnection.frame(WireCoding.encode(PeerMessage.hello(hello))),
                RawConnection.frame(OpsFrameBuilder.body(for: sent)),
            ]
        }
        #expect(exchange.admitted)
        #expect(BadInputTests.errorCodes(exchange.frames).isEmpty, "alice refused: \(exchange.frames)")

        // Accepted and written to the log as made; an add among them lists, the rating changes nothing.
        #expect(try await alice.waitUntil { try alice.movieIDs() == [603, 680] })
        for operation in sent { #expect(try Self.logHolds(alice, operation)) }

        // Kept across a restart, then relayed to bob, who verifies the chain through both.
        alice.stop()
        try alice.start()
        #expect(try alice.movieIDs() == [603, 680])
        let bob = try TestDaemon("bob", in: scratch, peers: [alice])
        #expect(try await bob.waitUntil { try bob.movieIDs() == [603, 680] })
        for operation in sent { #expect(try Self.logHolds(bob, operation)) }
        #expect(!bob.log.contains("invalid-operation"))
        #expect(try bob.status().operations == alice.status().operations)
    }
}
