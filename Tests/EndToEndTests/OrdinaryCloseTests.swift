import Foundation
import PeerdTestKit
import PeerdTestSupport
import PeerdWire
import Testing

/// A peer that stops, or a connection closed in the ordinary way, is not an error: it is logged as
/// a close, and `peers` keeps `lastError` for real errors.
@Suite("An ordinary close is not an error")
struct OrdinaryCloseTests {
    static func peers(of daemon: TestDaemon) throws -> [PeerRecord] {
        try daemon.peerctl("peers", "--json").json([PeerRecord].self)
    }

    /// The log notes a peer closing a session because it stops (PEER.md, "Errors and closing").
    static func heardShuttingDown(_ log: String) -> Bool {
        log.split(separator: "\n").contains { line in
            line.contains("peer closed the session") && line.contains("code=shutting-down")
        }
    }

    @Test func aPeerThatStopsIsLoggedAsAClosePlainly() async throws {
        let scratch = try ScratchDirectory("ordinary-close")
        let alice = try TestDaemon("alice", in: scratch)
        let bob = try TestDaemon("bob", in: scratch, peers: [alice])
        #expect(try alice.peerctl("add", "603").status == 0)
        #expect(try await bob.waitUntil { try bob.movieIDs() == [603] })

        alice.stop()
        // bob dials again after a backoff; until the first redial fails, its record shows the close.
        var afterClose: PeerRecord?
        #expect(
            // A session's state shows only in `peers`; no control event announces it: a poll.
            try await waitUntil(Ticks(every: .milliseconds(10))) {
                afterClose = try Self.peers(of: bob).first { $0.state == .retrying }
                return afterClose != nil
            }
        )
        #expect(afterClose?.lastError == nil, "a stop is not an error: \(String(describing: afterClose))")
        let bobLog = bob.log
        #expect(!bobLog.contains("code=internal"), "\(bobLog)")
        #expect(Self.heardShuttingDown(bobLog), "alice, stopping, said so on her session with bob: \(bobLog)")

        try alice.start()
        #expect(
            try await waitUntil(Ticks(every: .milliseconds(50))) { try Self.peers(of: bob).first?.state == .connected }
        )
        bob.stop()
        // bob's session is gone; he stays listed only as an origin alice holds operations of (his
        // record of admitting her).
        #expect(
            try await waitUntil(Ticks(every: .milliseconds(50))) {
                try Self.peers(of: alice).allSatisfy { $0.state == .relayed }
            }
        )
        #expect(Self.heardShuttingDown(alice.log), "bob, stopping, said so on the session he dialed: \(alice.log)")
        #expect(!alice.log.contains("code=internal"), "\(alice.log)")
    }
}
