import Foundation
import Logging
import PeerdModel
import PeerdStore
import PeerdTestKit
import PeerdWire
import ServiceLifecycleTestKit
import Synchronization
import SystemPackage
import Testing

@testable import PeerdDaemon

/// ``PeerDialer`` in process, with the network behind its ``Dialing`` seam: each dial is an event
/// the test waits for, and answers as it likes.
@Suite("The dialer")
struct PeerDialerTests {
    static let den = PeerAddress(host: "192.0.2.10", port: 7601)
    static let attic = PeerAddress(host: "192.0.2.11", port: 7601)

    /// What a test may look at besides the dials.
    struct Scene {
        let state: StateDirectory
        let directory: PeerDirectory
        let log: LogRecorder
    }

    /// A dialer over a scratch state directory and trust list, running until the body returns.
    func withDialer(
        initial: [PeerAddress],
        dialing: ScriptedDialing,
        _ body: (PeerDialer, Scene, inout AsyncStream<[PeerAddress]>.AsyncIterator) async throws -> Void
    ) async throws {
        // The state directory is made by `StateDirectory`, inside a scratch one.
        let root = try ScratchDirectory("dialer")
        defer { root.remove() }
        let scratch = root.path.appending("state")
        let log = LogRecorder()
        let logger = log.logger
        let state = try StateDirectory(at: scratch, logger: logger)
        let local = PeerID("a11ce000000000000000000000000001")!
        let trust = try TrustService(local: local, path: scratch.appending("trust.json"), groupKey: nil, logger: logger)
        let directory = PeerDirectory(localID: local)
        let dialer = PeerDialer(
            initial: initial,
            state: state,
            directory: directory,
            trust: trust,
            dialing: dialing,
            logger: logger
        )
        var dials = dialing.dials.stream.makeAsyncIterator()
        try await testGracefulShutdown { shutdown in
            try await withThrowingTaskGroup { group in
                group.addTask { try await dialer.run() }
                try await body(dialer, Scene(state: state, directory: directory, log: log), &dials)
                shutdown.triggerGracefulShutdown()
                try await group.waitForAll()
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func aStaticPeerIsDialedAtOnceAndAgainAfterARefusal() async throws {
        let refused = ScriptedDialing(outcome: .init(error: "connection refused", refused: true))
        try await withDialer(initial: [Self.den], dialing: refused) { _, _, dials in
            #expect(await dials.next() == [Self.den])
            // The backoff (under a second) passes, and the same target is dialed again.
            #expect(await dials.next() == [Self.den])
        }
    }

    @Test(.timeLimit(.minutes(1))) func aConnectedPeerIsDialedAndRememberedForTheNextStart() async throws {
        let refused = ScriptedDialing(outcome: .init(error: "connection refused", refused: true))
        try await withDialer(initial: [], dialing: refused) { dialer, scene, dials in
            try await dialer.add(Self.attic, remember: true)
            #expect(await dials.next() == [Self.attic])
            #expect(try scene.state.loadPeers() == [Self.attic.description])
            try await dialer.add(Self.attic, remember: true)
            #expect(try scene.state.loadPeers() == [Self.attic.description], "each address is remembered once")
        }
    }

    @Test(.timeLimit(.minutes(1))) func aDialThatReachesItselfStopsThatTarget() async throws {
        let itself = ScriptedDialing(outcome: .init(reachedItself: true))
        try await withDialer(initial: [Self.den], dialing: itself) { _, scene, dials in
            #expect(await dials.next() == [Self.den])
            // The dialer asked what next, was told to stop (and says so), and the target is gone.
            let saying = scene.log.stream(of: "this peer address is this peerd itself; not dialing it again")
            let said = try await firstEvent(of: saying)
            #expect(said != nil)
            #expect(await scene.directory.target(.address(Self.den)) == nil, "the target is not to be dialed again")
        }
    }
}
